// DamaskViews module.
