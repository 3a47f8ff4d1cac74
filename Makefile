# The two entry points; everything else is the `aesoc` command (aesoc --help).
.PHONY: setup test bench

setup:
	@bash scripts/setup.sh

test: setup
	python3 -m pytest -q -n auto --maxschedchunk 1

bench: setup
	aesoc bench
