@_exported import DamaskGraphics
@_exported import DamaskViews
