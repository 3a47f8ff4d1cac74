"""FPGA flow: synthesis, area, place and route with its cache and placement store."""
