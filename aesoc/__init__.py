"""aesoc: build, run and benchmark the aesoc crypto-acceleration SoC."""
