"""Integration into other frameworks: LiteX SoCs and FuseSoC cores."""
