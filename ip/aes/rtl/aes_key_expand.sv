// SPDX-License-Identifier: Apache-2.0
// One on-the-fly AES key-schedule step, forward or backward, for 128-, 192- and 256-bit keys.

`default_nettype none

// The key state is a window of Nk 32-bit words of the FIPS-197 expanded key w[] (section 5.2),
// word 0 of the window in bits [255:224], unused words zero. Window r starts at w[4*r], so the
// round key of round r is bits [255:128] of window r. A forward step (step_i = r) turns window r
// into window r+1; a backward step (step_i = r) turns window r+1 back into window r, which is how
// decryption walks the schedule from the last round key down to the cipher key. The windows
// past w[4*Nr+3] (AES-192, AES-256) are the same recurrence continued. Each step uses one
// SubWord (four S-boxes), in either direction.
module aes_key_expand #(
  parameter int unsigned KeyLenMax = 256,  // 128: AES-128 only, 256: AES-128/192/256
  parameter bit          DecEnable = 1'b1, // 0: forward steps only, bwd_i is ignored
  parameter bit          ExtSbox   = 1'b0, // 1: SubWord(key_sub_in(...)) comes in on sub_i
  parameter int unsigned SBoxImpl  = 0,    // its four S-boxes (aes_sbox_sel): 0 tower field, 1 tables
  parameter bit          SelIn     = 1'b0  // 1: the SubWord word's choice comes in on sel_i
) (
  input  logic [1:0]   key_len_i,
  input  logic         bwd_i,   // 1: backward step
  input  logic [3:0]   step_i,
  input  logic [255:0] win_i,
  input  logic [31:0]  sub_i,   // ExtSbox: SubWord of this step's word; else unused
  // SelIn: aes_pkg::key_sub_sel(key_len_i, bwd_i, step_i), from the caller's register; else unused
  input  logic [5:0]   sel_i,
  output logic [255:0] win_o
);
  logic [1:0]  key_len, rot_pos;
  logic        bwd;
  logic [7:0]  rcon;
  logic [31:0] v0, v1, v2, v3, v4, v5, v6, v7;
  logic [31:0] sub_in, sub_out, rot_sub;

  assign key_len = (KeyLenMax == 128) ? aes_pkg::AES_KEY_128 : key_len_i;
  assign bwd     = DecEnable ? bwd_i : 1'b0;
  assign rot_pos = aes_pkg::key_rot_pos(key_len, step_i);
  assign rcon    = aes_pkg::key_rcon(key_len, step_i);
  assign {v0, v1, v2, v3, v4, v5, v6, v7} = win_i;

  // The one word that goes through SubWord in this step: through four S-boxes here, or through
  // the caller's (ExtSbox: a core whose S-boxes are ROMs, read one cycle ahead) as sub_i.
  if (SelIn) begin : gen_sel_in
    assign sub_in = aes_pkg::key_sub_pick(sel_i, v0, v1, v2, v3, v5, v7);
  end else begin : gen_sel
    logic unused_sel_i;
    assign unused_sel_i = ^sel_i;
    assign sub_in       = aes_pkg::key_sub_in(key_len, bwd, step_i, v0, v1, v2, v3, v5, v7);
  end

  if (ExtSbox) begin : gen_ext_sbox
    logic unused_sub_in;
    assign unused_sub_in = ^sub_in;
    assign sub_out       = sub_i;
  end else begin : gen_sbox
    logic unused_sub_i;
    assign unused_sub_i = ^sub_i;
    for (genvar b = 0; b < 4; b++) begin : gen_byte
      aes_sbox_sel #(
        .Impl     (SBoxImpl),
        .DecEnable(1'b0)
      ) u_sbox (
        .data_i(sub_in[8 * b +: 8]),
        .inv_i (1'b0),
        .data_o(sub_out[8 * b +: 8])
      );
    end
  end

  // RotWord(SubWord(x)) ^ Rcon: SubWord is bytewise, so it commutes with RotWord.
  assign rot_sub = {sub_out[23:0], sub_out[31:24]} ^ {rcon, 24'h0};

  always_comb begin
    logic [31:0] n0, n1, n2, n3;
    n0 = '0;
    n1 = '0;
    n2 = '0;
    n3 = '0;
    win_o = '0;
    unique case (key_len)
      aes_pkg::AES_KEY_192: begin
        if (bwd) begin
          // v = (w4, w5, n0, n1, n2, n3) -> (w0 .. w5)
          n3 = v5 ^ v4;
          n2 = v4 ^ ((rot_pos == aes_pkg::KEY_ROT_W2) ? rot_sub : v3);
          n1 = v3 ^ v2;
          n0 = v2 ^ ((rot_pos == aes_pkg::KEY_ROT_W0) ? rot_sub : v1);
          win_o = {n0, n1, n2, n3, v0, v1, 64'h0};
        end else begin
          n0 = v0 ^ ((rot_pos == aes_pkg::KEY_ROT_W0) ? rot_sub : v5);
          n1 = v1 ^ n0;
          n2 = v2 ^ ((rot_pos == aes_pkg::KEY_ROT_W2) ? rot_sub : n1);
          n3 = v3 ^ n2;
          win_o = {v4, v5, n0, n1, n2, n3, 64'h0};
        end
      end
      aes_pkg::AES_KEY_256: begin
        if (bwd) begin
          // v = (w4 .. w7, n0 .. n3) -> (w0 .. w7)
          n3 = v7 ^ v6;
          n2 = v6 ^ v5;
          n1 = v5 ^ v4;
          n0 = v4 ^ ((rot_pos == aes_pkg::KEY_ROT_W0) ? rot_sub : sub_out);
          win_o = {n0, n1, n2, n3, v0, v1, v2, v3};
        end else begin
          n0 = v0 ^ ((rot_pos == aes_pkg::KEY_ROT_W0) ? rot_sub : sub_out);
          n1 = v1 ^ n0;
          n2 = v2 ^ n1;
          n3 = v3 ^ n2;
          win_o = {v4, v5, v6, v7, n0, n1, n2, n3};
        end
      end
      default: begin
        if (bwd) begin
          n3 = v3 ^ v2;
          n2 = v2 ^ v1;
          n1 = v1 ^ v0;
          n0 = v0 ^ rot_sub;
        end else begin
          n0 = v0 ^ rot_sub;
          n1 = v1 ^ n0;
          n2 = v2 ^ n1;
          n3 = v3 ^ n2;
        end
        win_o = {n0, n1, n2, n3, 128'h0};
      end
    endcase
  end

endmodule

`default_nettype wire
