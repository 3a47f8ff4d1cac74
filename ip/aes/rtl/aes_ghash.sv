// SPDX-License-Identifier: Apache-2.0
// GHASH step of GCM (NIST SP 800-38D, section 6.4): Y = (Y ^ X) * H in GF(2^128), BitsPerCycle
// bits of the multiplier per cycle.

`default_nettype none

// Bit order is GCM's: bit 0 of a block (the coefficient of x^0) is bits[127], the most
// significant bit of byte 0, so a block is the same 128-bit vector as in aes_engine. A multiply
// is SP 800-38D Algorithm 1: for each bit x_i of the multiplier, Z ^= V when x_i is set, then
// V = V * x (a right shift in this bit order, reduced by R = 11100001 || 0^120).
//
// A block is taken when in_ready_o is high; the first BitsPerCycle steps run in that same
// cycle, so a multiply occupies 128 / BitsPerCycle cycles and y_o holds the new Y at the end of
// the last one (in_ready_o is high again from the next cycle). init_i zeroes Y (start of a
// hash); clear_i zeroises every register. h_i must stay stable while busy_o is high.
module aes_ghash #(
  parameter int unsigned BitsPerCycle = 8  // 1, 2, 4, 8, 16, 32, 64 or 128
) (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,
  input  wire logic         clear_i,
  input  wire logic [127:0] h_i,
  input  wire logic         init_i,       // Y = 0 (ignored while busy_o)
  input  wire logic         in_valid_i,
  output logic              in_ready_o,
  input  wire logic [127:0] in_data_i,
  output logic              busy_o,
  output logic [127:0]      y_o
);
  localparam int unsigned Steps = 128 / BitsPerCycle;  // cycles per multiply
  localparam int unsigned CntW  = (Steps > 1) ? $clog2(Steps) : 1;
  localparam logic [127:0] R    = {8'b1110_0001, 120'd0};

  logic [127:0]    y_q, y_d, z_q, z_d, v_q, v_d, x_q, x_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic            busy_q, busy_d, accept;
  logic [127:0]    z_in, v_in, x_in;

  assign accept     = in_valid_i & ~busy_q;
  assign in_ready_o = ~busy_q;

  // Operands of this cycle's steps: fresh ones in the cycle a block is taken.
  assign z_in = accept ? 128'd0 : z_q;
  assign v_in = accept ? h_i : v_q;
  assign x_in = accept ? (y_q ^ in_data_i) : x_q;

  always_comb begin
    z_d = z_in;
    v_d = v_in;
    x_d = x_in;
    for (int unsigned i = 0; i < BitsPerCycle; i++) begin
      if (x_d[127]) begin
        z_d = z_d ^ v_d;
      end
      v_d = {1'b0, v_d[127:1]} ^ (v_d[0] ? R : 128'd0);
      x_d = {x_d[126:0], 1'b0};
    end
  end

  always_comb begin
    y_d    = y_q;
    cnt_d  = cnt_q;
    busy_d = busy_q;
    if (accept) begin
      if (Steps == 1) begin
        y_d = z_d;
      end else begin
        busy_d = 1'b1;
        cnt_d  = CntW'(Steps - 1);
      end
    end else if (busy_q) begin
      cnt_d = cnt_q - CntW'(1);
      if (cnt_q == CntW'(1)) begin
        busy_d = 1'b0;
        y_d    = z_d;
      end
    end else if (init_i) begin
      y_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      y_q    <= '0;
      z_q    <= '0;
      v_q    <= '0;
      x_q    <= '0;
      cnt_q  <= '0;
      busy_q <= 1'b0;
    end else if (clear_i) begin
      y_q    <= '0;
      z_q    <= '0;
      v_q    <= '0;
      x_q    <= '0;
      cnt_q  <= '0;
      busy_q <= 1'b0;
    end else begin
      y_q    <= y_d;
      // The working registers hold data only during a multiply.
      z_q    <= busy_d ? z_d : '0;
      v_q    <= busy_d ? v_d : '0;
      x_q    <= busy_d ? x_d : '0;
      cnt_q  <= cnt_d;
      busy_q <= busy_d;
    end
  end

  assign busy_o = busy_q;
  assign y_o    = y_q;

`ifdef ASSERT_ON
  if (BitsPerCycle < 1 || BitsPerCycle > 128 || (BitsPerCycle & (BitsPerCycle - 1)) != 0)
  begin : gen_param_check
    $error("aes_ghash: BitsPerCycle must be a power of two from 1 to 128");
  end
  // A multiply ends within its step count.
  GhashBounded_A: assert property (@(posedge clk_i) busy_q |-> 32'(cnt_q) < Steps);
`endif

endmodule

`default_nettype wire
