// SPDX-License-Identifier: Apache-2.0
// Two-share masked AES S-box (forward and inverse): tower-field inversion from DOM-indep
// multipliers, evaluated in nine register steps.

`default_nettype none

// The byte is held as x = x0 ^ x1 and must stay still while load_i walks steps 0..8 (one-hot,
// one step a cycle); y0_o ^ y1_o is the S-box of x from the cycle after step 8 until the next
// step 0. Inversion in GF((2^4)^2) (aes_pkg's tower, th*z + tl):
//   d = 8*th^2 ^ tl^2 ^ th*tl,  d^-1 = d^14 = d^2 * (d * d^2)^4,  t^-1 = {th*d^-1, (th^tl)*d^-1}.
// Every product of two shared values is a DOM-indep multiplier: the two cross-domain terms get
// the same fresh nibble and are registered before they meet their domain's own term, and that
// sum is registered again (compression) before any later step uses it. A probe on any wire, with
// its glitch-extended cone, then sees registers of one domain plus at most one register of the
// other that carries fresh randomness, so its values do not depend on x. Operands of a product
// are independent sharings: th and tl are different bits of a uniformly masked byte; d and d^2
// are not, so d^2 is refreshed (r ^ d_i^2, registered) before d * d^2; every later operand
// carries the fresh mask of the product that made it. Squaring, the field constants and the
// affine maps are linear, applied per share (constants on share 0 only).
// Randomness: rnd_i[3:0] at steps 0, 2, 3, 5; rnd_i[7:0] at step 7: 24 bits per evaluation.
module aes_masked_sbox #(
  parameter bit DecEnable = 1'b1  // 0: forward S-box only, inv_i is ignored
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       clear_i,
  input  logic [8:0] load_i,  // one-hot: load the registers of step i
  input  logic       inv_i,   // 1: InvSubBytes
  input  logic [7:0] x0_i,
  input  logic [7:0] x1_i,
  input  logic [7:0] rnd_i,
  output logic [7:0] y0_o,
  output logic [7:0] y1_o
);
  logic       inv;
  logic [7:0] t0, t1;
  logic [3:0] th0, tl0, th1, tl1;
  // Step registers: c* cross-domain terms, the rest compressed shares.
  logic [3:0] c1a_q, c1b_q, d0_q, d1_q, r0_q, r1_q, c3a_q, c3b_q, e0_q, e1_q;
  logic [3:0] c5a_q, c5b_q, di0_q, di1_q;
  logic [7:0] c7a_q, c7b_q, o0_q, o1_q;
  logic [3:0] d0sq, d1sq, e0q, e1q;

  assign inv = DecEnable & inv_i;

  // Into the tower field; the inverse affine map's constant goes to share 0 only.
  assign t0 = inv ? (aes_pkg::gf2_matrix(aes_pkg::TO_TOWER_INVAFF, x0_i) ^ aes_pkg::TOWER_INVAFF_C)
                  : aes_pkg::gf2_matrix(aes_pkg::TO_TOWER, x0_i);
  assign t1 = inv ? aes_pkg::gf2_matrix(aes_pkg::TO_TOWER_INVAFF, x1_i)
                  : aes_pkg::gf2_matrix(aes_pkg::TO_TOWER, x1_i);
  assign {th0, tl0} = t0;
  assign {th1, tl1} = t1;

  assign d0sq = aes_pkg::gf16_mul(d0_q, d0_q);
  assign d1sq = aes_pkg::gf16_mul(d1_q, d1_q);
  // (d * d^2)^4, per share
  assign e0q  = aes_pkg::gf16_mul(aes_pkg::gf16_mul(e0_q, e0_q), aes_pkg::gf16_mul(e0_q, e0_q));
  assign e1q  = aes_pkg::gf16_mul(aes_pkg::gf16_mul(e1_q, e1_q), aes_pkg::gf16_mul(e1_q, e1_q));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {c1a_q, c1b_q, d0_q, d1_q, r0_q, r1_q, c3a_q, c3b_q, e0_q, e1_q} <= '0;
      {c5a_q, c5b_q, di0_q, di1_q, c7a_q, c7b_q, o0_q, o1_q}           <= '0;
    end else if (clear_i) begin
      {c1a_q, c1b_q, d0_q, d1_q, r0_q, r1_q, c3a_q, c3b_q, e0_q, e1_q} <= '0;
      {c5a_q, c5b_q, di0_q, di1_q, c7a_q, c7b_q, o0_q, o1_q}           <= '0;
    end else begin
      // d = th * tl (cross terms) ...
      if (load_i[0]) begin
        c1a_q <= aes_pkg::gf16_mul(th0, tl1) ^ rnd_i[3:0];
        c1b_q <= aes_pkg::gf16_mul(th1, tl0) ^ rnd_i[3:0];
      end
      // ... plus the linear part 8*th^2 ^ tl^2, compressed per domain.
      if (load_i[1]) begin
        d0_q <= aes_pkg::gf16_mul(aes_pkg::gf16_mul(th0, th0), 4'h8) ^
                aes_pkg::gf16_mul(tl0, tl0) ^ aes_pkg::gf16_mul(th0, tl0) ^ c1a_q;
        d1_q <= aes_pkg::gf16_mul(aes_pkg::gf16_mul(th1, th1), 4'h8) ^
                aes_pkg::gf16_mul(tl1, tl1) ^ aes_pkg::gf16_mul(th1, tl1) ^ c1b_q;
      end
      // Refresh d^2 so that it is a sharing independent of d's.
      if (load_i[2]) begin
        r0_q <= d0sq ^ rnd_i[3:0];
        r1_q <= d1sq ^ rnd_i[3:0];
      end
      // e = d * d^2 = d^3
      if (load_i[3]) begin
        c3a_q <= aes_pkg::gf16_mul(d0_q, r1_q) ^ rnd_i[3:0];
        c3b_q <= aes_pkg::gf16_mul(d1_q, r0_q) ^ rnd_i[3:0];
      end
      if (load_i[4]) begin
        e0_q <= aes_pkg::gf16_mul(d0_q, r0_q) ^ c3a_q;
        e1_q <= aes_pkg::gf16_mul(d1_q, r1_q) ^ c3b_q;
      end
      // d^-1 = d^2 * e^4
      if (load_i[5]) begin
        c5a_q <= aes_pkg::gf16_mul(d0sq, e1q) ^ rnd_i[3:0];
        c5b_q <= aes_pkg::gf16_mul(d1sq, e0q) ^ rnd_i[3:0];
      end
      if (load_i[6]) begin
        di0_q <= aes_pkg::gf16_mul(d0sq, e0q) ^ c5a_q;
        di1_q <= aes_pkg::gf16_mul(d1sq, e1q) ^ c5b_q;
      end
      // t^-1 = {th * d^-1, (th ^ tl) * d^-1}
      if (load_i[7]) begin
        c7a_q <= {aes_pkg::gf16_mul(th0, di1_q), aes_pkg::gf16_mul(th0 ^ tl0, di1_q)} ^ rnd_i;
        c7b_q <= {aes_pkg::gf16_mul(th1, di0_q), aes_pkg::gf16_mul(th1 ^ tl1, di0_q)} ^ rnd_i;
      end
      if (load_i[8]) begin
        o0_q <= {aes_pkg::gf16_mul(th0, di0_q), aes_pkg::gf16_mul(th0 ^ tl0, di0_q)} ^ c7a_q;
        o1_q <= {aes_pkg::gf16_mul(th1, di1_q), aes_pkg::gf16_mul(th1 ^ tl1, di1_q)} ^ c7b_q;
      end
    end
  end

  // Out of the tower field; the affine constant goes to share 0 only.
  assign y0_o = inv ? aes_pkg::gf2_matrix(aes_pkg::FROM_TOWER, o0_q)
                    : (aes_pkg::gf2_matrix(aes_pkg::FROM_TOWER_AFF, o0_q) ^ aes_pkg::AFFINE_C);
  assign y1_o = inv ? aes_pkg::gf2_matrix(aes_pkg::FROM_TOWER, o1_q)
                    : aes_pkg::gf2_matrix(aes_pkg::FROM_TOWER_AFF, o1_q);

endmodule

`default_nettype wire
