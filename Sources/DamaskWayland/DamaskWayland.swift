// DamaskWayland module.
