// SPDX-License-Identifier: Apache-2.0
// Clock gate for simulation speed (docs/ARCHITECTURE.md, "Idle clock gating").
`default_nettype none

// With AESOC_SIM_CLOCK_GATES (the SoC's simulation model) the enable is taken while the clock is
// low and held while it is high, so clk_o has whole pulses only: Verilator then evaluates the
// gated block only on the edges it gets. Without it (synthesis, lint, block tests) clk_o is clk_i:
// FPGA flows use clock enables, not gated clocks, and a block gated here promises through its
// idle output that the edges it misses would change none of its registers.
module clock_gate (
  input  wire logic clk_i,
  input  wire logic en_i,
  output logic      clk_o
);

`ifdef AESOC_SIM_CLOCK_GATES
  logic en_l;
  always_latch begin
    if (!clk_i) begin
      en_l = en_i;
    end
  end
  assign clk_o = clk_i & en_l;
`else
  logic unused_en;
  assign unused_en = en_i;
  assign clk_o     = clk_i;
`endif

endmodule

`default_nettype wire
