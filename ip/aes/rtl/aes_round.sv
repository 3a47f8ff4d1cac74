// SPDX-License-Identifier: Apache-2.0
// One AES round on the 128-bit state: SubBytes/ShiftRows/MixColumns/AddRoundKey or its inverse.

`default_nettype none

// Encryption round (FIPS-197 section 5.1):  out = MixColumns(SubBytes(ShiftRows(in))) ^ rk,
// decryption round (section 5.3, inverse cipher):
//   out = InvMixColumns(InvSubBytes(InvShiftRows(in)) ^ rk).
// The final round skips (Inv)MixColumns. ShiftRows commutes with SubBytes, so both directions
// permute first and then share one bank of 16 S-boxes; InvMixColumns is MixColumns after the
// {04}x^2+{05} pre-multiplication, so both directions also share the MixColumns network.
//
// Split = 1 cuts the round in two for a register between the halves (aes_cipher_core's
// SplitRound): sub_o is (Inv)ShiftRows and (Inv)SubBytes of state_i, and state_o is the rest of
// the round applied to sub_i (the caller's register of sub_o), not to state_i.
module aes_round #(
  parameter bit          DecEnable = 1'b1,  // 0: encryption rounds only, dec_i is ignored
  parameter bit          Split     = 1'b0,  // 1: state_o is computed from sub_i
  parameter int unsigned SBoxImpl  = 0      // aes_sbox_sel: 0 tower field, 1 tables
) (
  input  logic [127:0] state_i,
  input  logic [127:0] rk_i,
  input  logic         dec_i,    // 1: inverse round
  input  logic         final_i,  // 1: last round of the cipher (no MixColumns)
  input  logic [127:0] sub_i,    // Split: the registered sub_o; else unused
  output logic [127:0] sub_o,    // (Inv)SubBytes((Inv)ShiftRows(state_i))
  output logic [127:0] state_o
);
  logic         dec;
  logic [127:0] shifted, subbed, sub_half, keyed, premixed, mixed;

  assign dec = DecEnable ? dec_i : 1'b0;

  // ShiftRows: s'[r][c] = s[r][(c + r) mod 4]; InvShiftRows: s'[r][c] = s[r][(c - r) mod 4].
  always_comb begin
    for (int c = 0; c < 4; c++) begin
      for (int r = 0; r < 4; r++) begin
        if (dec) begin
          shifted[127 - 32 * c - 8 * r -: 8] = state_i[127 - 32 * ((c + 4 - r) % 4) - 8 * r -: 8];
        end else begin
          shifted[127 - 32 * c - 8 * r -: 8] = state_i[127 - 32 * ((c + r) % 4) - 8 * r -: 8];
        end
      end
    end
  end

  for (genvar b = 0; b < 16; b++) begin : gen_sbox
    aes_sbox_sel #(
      .Impl     (SBoxImpl),
      .DecEnable(DecEnable)
    ) u_sbox (
      .data_i(shifted[8 * b +: 8]),
      .inv_i (dec),
      .data_o(subbed[8 * b +: 8])
    );
  end

  assign sub_o = subbed;

  if (Split) begin : gen_split
    assign sub_half = sub_i;
  end else begin : gen_whole
    logic unused_sub_i;
    assign unused_sub_i = ^sub_i;
    assign sub_half     = subbed;
  end

  always_comb begin
    keyed = dec ? (sub_half ^ rk_i) : sub_half;
    for (int c = 0; c < 4; c++) begin
      premixed[32 * c +: 32] = dec ? aes_pkg::inv_mix_pre(keyed[32 * c +: 32]) :
                                     keyed[32 * c +: 32];
      mixed[32 * c +: 32]    = aes_pkg::mix_column(premixed[32 * c +: 32]);
    end
    if (final_i) begin
      state_o = dec ? keyed : (keyed ^ rk_i);
    end else begin
      state_o = dec ? mixed : (mixed ^ rk_i);
    end
  end

endmodule

`default_nettype wire
