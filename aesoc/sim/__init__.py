"""Simulation: firmware builds, the Verilator model, runs on it, cocotb block tests, profiles."""
