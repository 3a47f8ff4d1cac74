# The two entry points; everything else is the `aesoc` command (aesoc --help).
.PHONY: setup test bench bench-fpga

setup:
	@bash scripts/setup.sh

test: setup
	python3 -m pytest -q -n auto --maxschedchunk 1 --durations=40

bench: setup
	aesoc bench

# Also place and route what is not cached (hours for the SoCs): the FPGA figures and placed clocks.
bench-fpga: setup
	aesoc bench --place
