// SPDX-License-Identifier: Apache-2.0
// Synchronous FIFO of a register-mapped peripheral's queue: first-word fall-through, any depth
// from 1, a fill level for STATUS and a flush that zeroises the storage (CMD.CLEAR).
`default_nettype none

// A push while full and a pop while empty are ignored: the peripheral decides what a refused word
// means (a held bus write, an error bit). Storage is zeroised on flush so no queued plaintext or
// key-dependent data stays in the flops after a clear.
module periph_fifo #(
  parameter  int unsigned Depth = 2,
  parameter  int unsigned Width = 32,
  localparam int unsigned LW    = $clog2(Depth + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             flush_i,
  input  wire logic             push_i,
  input  wire logic [Width-1:0] data_i,
  output logic                  full_o,
  input  wire logic             pop_i,
  output logic [Width-1:0]      data_o,
  output logic                  empty_o,
  output logic [LW-1:0]         level_o
);

  localparam int unsigned PW = (Depth > 1) ? $clog2(Depth) : 1;

  logic [Width-1:0] mem_q [Depth];
  logic [PW-1:0]    wptr_q, rptr_q;
  logic [LW-1:0]    level_q;
  logic             do_push, do_pop;

  // Full and empty come from the level register alone: one compare, no pointer arithmetic.
  assign full_o  = level_q == LW'(Depth);
  assign empty_o = level_q == '0;
  assign level_o = level_q;
  assign do_push = push_i & ~full_o;
  assign do_pop  = pop_i & ~empty_o;
  assign data_o  = mem_q[rptr_q];

  // Wraps at Depth, which need not be a power of two.
  function automatic logic [PW-1:0] ptr_inc(logic [PW-1:0] p);
    return (p == PW'(Depth - 1)) ? '0 : p + PW'(1);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_q   <= '{default: '0};
      wptr_q  <= '0;
      rptr_q  <= '0;
      level_q <= '0;
    end else if (flush_i) begin
      mem_q   <= '{default: '0};
      wptr_q  <= '0;
      rptr_q  <= '0;
      level_q <= '0;
    end else begin
      if (do_push) begin
        mem_q[wptr_q] <= data_i;
        wptr_q        <= ptr_inc(wptr_q);
      end
      if (do_pop) begin
        rptr_q <= ptr_inc(rptr_q);
      end
      level_q <= level_q + LW'(do_push) - LW'(do_pop);
    end
  end

  if (Depth < 1) begin : gen_bad_depth
    $error("periph_fifo: Depth must be at least 1");
  end

endmodule

`default_nettype wire
