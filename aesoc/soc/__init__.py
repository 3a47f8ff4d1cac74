"""The SoC as hardware: IP manifests, register maps, the description, the generated tops and
shells, RTL source lists in compile order, lint."""
