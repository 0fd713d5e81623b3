// DamaskGraphics module.
