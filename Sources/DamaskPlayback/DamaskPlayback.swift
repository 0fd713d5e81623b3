// DamaskPlayback module.
