// SPDX-License-Identifier: Apache-2.0
// AES engine package: encodings, constants and the byte-level functions of FIPS-197.
//
// Byte order used throughout the IP: a 128-bit block holds byte 0 of the FIPS-197 byte array
// in bits [127:120] (big-endian), so NIST hex strings map directly onto the vectors. The state
// column c (FIPS-197 s[0..3][c]) is bits [127-32*c -: 32], row 0 in the most significant byte.
// Keys are left-aligned in a 256-bit vector: key byte 0 in bits [255:248].

`default_nettype none

package aes_pkg;

  // Chaining modes (mode_i).
  localparam logic [1:0] AES_MODE_ECB = 2'd0;
  localparam logic [1:0] AES_MODE_CBC = 2'd1;
  localparam logic [1:0] AES_MODE_CTR = 2'd2;

  // Direction (dir_i): encrypt or decrypt. CTR always runs the cipher forward.
  localparam logic AES_DIR_ENC = 1'b0;
  localparam logic AES_DIR_DEC = 1'b1;

  // Key lengths (key_len_i).
  localparam logic [1:0] AES_KEY_128 = 2'd0;
  localparam logic [1:0] AES_KEY_192 = 2'd1;
  localparam logic [1:0] AES_KEY_256 = 2'd2;

  // Width of the incrementing (least significant) part of the CTR counter block (ctr_width_i).
  localparam logic [1:0] AES_CTR_32  = 2'd0;
  localparam logic [1:0] AES_CTR_64  = 2'd1;
  localparam logic [1:0] AES_CTR_128 = 2'd2;

  // Number of rounds Nr (FIPS-197 table 4).
  function automatic logic [3:0] num_rounds(logic [1:0] key_len);
    unique case (key_len)
      AES_KEY_192: num_rounds = 4'd12;
      AES_KEY_256: num_rounds = 4'd14;
      default:     num_rounds = 4'd10;
    endcase
  endfunction

  // S-box arithmetic in a tower field. FIPS-197 section 5.1.1 defines the S-box as the inverse
  // in GF(2^8) = GF(2)[x]/(x^8 + x^4 + x^3 + x + 1) followed by an affine map. The inverse is
  // computed in the isomorphic field GF(2^4)[z]/(z^2 + z + {8}) over
  // GF(2^4) = GF(2)[y]/(y^4 + y + 1):
  // a 4-bit inverse table and a few 4-bit products instead of a 256-entry table, and the same
  // inverter serves the S-box and the inverse S-box. The 8x8 bit matrices map into and out of
  // the tower basis (x -> {20} in the tower representation), with the affine map (or its inverse)
  // folded in; row j of a matrix is bits [8*j +: 8]. The tests compare aes_sbox with the
  // FIPS-197 tables on all inputs.
  localparam logic [63:0] TO_TOWER        = 64'ha0acd27018fc04a1;  // M
  localparam logic [63:0] FROM_TOWER      = 64'hd48e54cac202b081;  // M^-1
  localparam logic [63:0] FROM_TOWER_AFF  = 64'h06d0ee3b25693f45;  // A * M^-1
  localparam logic [63:0] TO_TOWER_INVAFF = 64'hc67178f76f129262;  // M * A^-1
  localparam logic [7:0]  AFFINE_C        = 8'h63;                 // affine constant
  localparam logic [7:0]  TOWER_INVAFF_C  = 8'h47;                 // M * A^-1 * {63}

  function automatic logic [7:0] gf2_matrix(logic [63:0] m, logic [7:0] x);
    for (int j = 0; j < 8; j++) begin
      gf2_matrix[j] = ^(m[8 * j +: 8] & x);
    end
  endfunction

  function automatic logic [3:0] gf16_mul(logic [3:0] a, logic [3:0] b);
    logic [6:0] p;
    p = '0;
    for (int i = 0; i < 4; i++) begin
      if (b[i]) begin
        p = p ^ (7'(a) << i);
      end
    end
    for (int i = 6; i >= 4; i--) begin
      if (p[i]) begin
        p = p ^ (7'(5'b10011) << (i - 4));
      end
    end
    gf16_mul = p[3:0];
  endfunction

  function automatic logic [3:0] gf16_inv(logic [3:0] a);
    unique case (a)
      4'h0: gf16_inv = 4'h0;  // 0 maps to 0, as FIPS-197 asks of the S-box inverse
      4'h1: gf16_inv = 4'h1;
      4'h2: gf16_inv = 4'h9;
      4'h3: gf16_inv = 4'he;
      4'h4: gf16_inv = 4'hd;
      4'h5: gf16_inv = 4'hb;
      4'h6: gf16_inv = 4'h7;
      4'h7: gf16_inv = 4'h6;
      4'h8: gf16_inv = 4'hf;
      4'h9: gf16_inv = 4'h2;
      4'ha: gf16_inv = 4'hc;
      4'hb: gf16_inv = 4'h5;
      4'hc: gf16_inv = 4'ha;
      4'hd: gf16_inv = 4'h4;
      4'he: gf16_inv = 4'h3;
      default: gf16_inv = 4'h8;
    endcase
  endfunction

  // Inverse of a tower element t = th * z + tl:
  // (th * z + (th + tl)) / (th^2 * {8} + th * tl + tl^2).
  function automatic logic [7:0] gf256_inv_tower(logic [7:0] t);
    logic [3:0] th, tl, d, di;
    th = t[7:4];
    tl = t[3:0];
    d  = gf16_mul(gf16_mul(th, th), 4'h8) ^ gf16_mul(th, tl) ^ gf16_mul(tl, tl);
    di = gf16_inv(d);
    gf256_inv_tower = {gf16_mul(th, di), gf16_mul(th ^ tl, di)};
  endfunction

  // SubBytes on one byte (FIPS-197 figure 7).
  function automatic logic [7:0] sbox_fwd(logic [7:0] x);
    sbox_fwd = gf2_matrix(FROM_TOWER_AFF, gf256_inv_tower(gf2_matrix(TO_TOWER, x))) ^ AFFINE_C;
  endfunction

  // InvSubBytes on one byte (FIPS-197 figure 14).
  function automatic logic [7:0] sbox_inv(logic [7:0] x);
    sbox_inv = gf2_matrix(FROM_TOWER,
                          gf256_inv_tower(gf2_matrix(TO_TOWER_INVAFF, x) ^ TOWER_INVAFF_C));
  endfunction

  // Multiplication by {02} in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS-197 section 4.2.1).
  function automatic logic [7:0] xtime(logic [7:0] b);
    xtime = {b[6:0], 1'b0} ^ (b[7] ? 8'h1b : 8'h00);
  endfunction

  // MixColumns on one column, row 0 in bits [31:24] (FIPS-197 section 5.1.3).
  function automatic logic [31:0] mix_column(logic [31:0] col);
    logic [7:0] a0, a1, a2, a3;
    {a0, a1, a2, a3} = col;
    mix_column = {xtime(a0 ^ a1) ^ a1 ^ a2 ^ a3,
                  xtime(a1 ^ a2) ^ a2 ^ a3 ^ a0,
                  xtime(a2 ^ a3) ^ a3 ^ a0 ^ a1,
                  xtime(a3 ^ a0) ^ a0 ^ a1 ^ a2};
  endfunction

  // InvMixColumns = MixColumns after a multiplication by {04}x^2 + {05} (Daemen and Rijmen,
  // "The Design of Rijndael", section 4.1.3): this is that pre-multiplication, so encryption and
  // decryption share one MixColumns network.
  function automatic logic [31:0] inv_mix_pre(logic [31:0] col);
    logic [7:0] a0, a1, a2, a3, u, v;
    {a0, a1, a2, a3} = col;
    u = xtime(xtime(a0 ^ a2));
    v = xtime(xtime(a1 ^ a3));
    inv_mix_pre = {a0 ^ u, a1 ^ v, a2 ^ u, a3 ^ v};
  endfunction

  // Key schedule steps. Step s turns the window of Nk words starting at word 4*s of the expanded
  // key (FIPS-197 section 5.2) into the window starting at word 4*(s+1); the round key of round
  // r is the first four words of window r. key_rot_pos says where in step s the RotWord/Rcon
  // word falls (KEY_ROT_NONE: SubWord only for AES-256, nothing for AES-192), key_rcon its Rcon.
  localparam logic [1:0] KEY_ROT_W0   = 2'd0;  // first new word takes RotWord+SubWord+Rcon
  localparam logic [1:0] KEY_ROT_W2   = 2'd1;  // third new word (AES-192 only)
  localparam logic [1:0] KEY_ROT_NONE = 2'd2;  // no RotWord in this step

  function automatic logic [1:0] key_rot_pos(logic [1:0] key_len, logic [3:0] step);
    unique case (key_len)
      AES_KEY_192: begin
        unique case (step)
          4'd0, 4'd3, 4'd6, 4'd9, 4'd12: key_rot_pos = KEY_ROT_W0;
          4'd1, 4'd4, 4'd7, 4'd10, 4'd13: key_rot_pos = KEY_ROT_W2;
          default: key_rot_pos = KEY_ROT_NONE;
        endcase
      end
      AES_KEY_256: key_rot_pos = step[0] ? KEY_ROT_NONE : KEY_ROT_W0;
      default: key_rot_pos = KEY_ROT_W0;
    endcase
  endfunction

  function automatic logic [7:0] key_rcon(logic [1:0] key_len, logic [3:0] step);
    logic [3:0] idx;  // i/Nk - 1 of FIPS-197 figure 11, counted from 0
    unique case (key_len)
      AES_KEY_192: begin
        unique case (step)
          4'd0: idx = 4'd0;
          4'd1: idx = 4'd1;
          4'd3: idx = 4'd2;
          4'd4: idx = 4'd3;
          4'd6: idx = 4'd4;
          4'd7: idx = 4'd5;
          4'd9: idx = 4'd6;
          4'd10: idx = 4'd7;
          default: idx = 4'd15;
        endcase
      end
      AES_KEY_256: idx = {1'b0, step[3:1]};
      default: idx = step;
    endcase
    unique case (idx)
      4'd0: key_rcon = 8'h01;
      4'd1: key_rcon = 8'h02;
      4'd2: key_rcon = 8'h04;
      4'd3: key_rcon = 8'h08;
      4'd4: key_rcon = 8'h10;
      4'd5: key_rcon = 8'h20;
      4'd6: key_rcon = 8'h40;
      4'd7: key_rcon = 8'h80;
      4'd8: key_rcon = 8'h1b;
      4'd9: key_rcon = 8'h36;
      default: key_rcon = 8'h00;
    endcase
  endfunction

  // Byte swap of a 32-bit word. Bus wrappers and the CFU move words in memory byte order (byte 0
  // of an array in bits [7:0] after lw); the engine wants byte 0 of a block in its top bits.
  function automatic logic [31:0] bswap(logic [31:0] w);
    bswap = {w[7:0], w[15:8], w[23:16], w[31:24]};
  endfunction

endpackage

`default_nettype wire
