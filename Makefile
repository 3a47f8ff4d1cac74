# The two entry points; everything else is the `aesoc` command (aesoc --help).
.PHONY: setup test bench bench-fpga

setup:
	@bash scripts/setup.sh

# Ends with the suite's wall and CPU seconds: how busy it kept the machine's cores.
test: setup
	@bash -c 'TIMEFORMAT="make test: %R s wall, %U s user + %S s system CPU"; \
	  time python3 -m pytest -q -n auto --maxschedchunk 1 --durations=40'

bench: setup
	aesoc bench

# Also place and route what is not cached (hours for the SoCs): the FPGA figures and placed clocks.
bench-fpga: setup
	aesoc bench --place
