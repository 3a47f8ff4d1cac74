// SPDX-License-Identifier: Apache-2.0
// First-order masked AES cipher core: state and round keys as two shares, one round per ten
// cycles through DOM masked S-boxes (aes_masked_sbox), fresh randomness from aes_prng.

`default_nettype none

// The block interface of aes_cipher_core (out = AES(block) ^ mask, key_ready_o after the
// decryption key is derived), so aes_engine selects it with Masking != 0.
//
// Shares: a key write is split at once (key ^ r, r); a block is taken as
// (block ^ rk0_0 ^ m, rk0_1 ^ m) with the working key window remasked by fresh bits, so no
// register holds the key, the state or a round key unshared. The two shares meet only in
// out_data_o, combinationally, when the result leaves (ShiftRows, MixColumns, AddRoundKey and
// the key schedule's XORs are linear and run per share; constants go to share 0).
//
// Timing: each round (and each key-schedule step) is nine S-box steps (phases 0..8) and one
// update (phase 9): ten cycles. Latency = 1 + 10 * Nr (101/121/141 for AES-128/192/256);
// decryption-key derivation 10 * Nr cycles. One block at a time.
//
// Randomness per cycle: 8 bits for each of the 16 state and 4 key-schedule S-boxes (24 used per
// evaluation, aes_masked_sbox); per block 128 bits of state mask and 128 bits of key remask;
// per key write 256 bits.
module aes_masked_core #(
  parameter bit           DecEnable = 1'b1,
  parameter int unsigned  KeyLenMax = 256,
  parameter bit           PrngOff   = 1'b0,  // leakage assessment only: no randomness at all
  parameter logic [127:0] PrngSeed  = 128'h5be0cd19137e2179_1f83d9ab9b05688c
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,

  input  logic [255:0] key_i,
  input  logic [1:0]   key_len_i,
  input  logic         key_we_i,
  output logic         key_ready_o,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic         in_dec_i,
  input  logic [127:0] in_block_i,
  input  logic [127:0] in_mask_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_data_o,

  output logic         busy_o,

  // aes_prng reseed (see there)
  input  logic [127:0] prng_seed_i,
  input  logic         prng_seed_we_i
);
  localparam int unsigned LAST_PH = 9;
  localparam logic [255:0] KEY_KEEP = (KeyLenMax == 128) ? {{128{1'b1}}, 128'h0} : {256{1'b1}};

  typedef enum logic [1:0] {
    ST_IDLE   = 2'd0,
    ST_RUN    = 2'd1,
    ST_DONE   = 2'd2,
    ST_KEYGEN = 2'd3
  } state_e;

  state_e       fsm_q, fsm_d;
  logic [255:0] key0_q, key1_q, key0_d, key1_d, dkey0_q, dkey1_q, dkey0_d, dkey1_d;
  logic [255:0] win0_q, win1_q, win0_d, win1_d, kw0, kw1, rwin, rkey;
  logic [127:0] st0_q, st1_q, st0_d, st1_d, mask_q, mask_d, rst0, rst1, rmask;
  logic [1:0]   klen_q, klen_d, klen_in;
  logic         kvalid_q, kvalid_d, dkvalid_q, dkvalid_d, dec_q, dec_d;
  logic [3:0]   cnt_q, cnt_d, ph_q, ph_d, nr, step;
  logic [4:0]   q;
  logic [255:0] key_in, rnd;
  logic [8:0]   load;
  logic         accept, last, upd, running;

  aes_prng #(
    .Lanes(8),
    .Seed (PrngSeed),
    .Off  (PrngOff)
  ) u_prng (
    .clk_i,
    .rst_ni,
    .seed_i   (prng_seed_i),
    .seed_we_i(prng_seed_we_i),
    .rnd_o    (rnd)
  );

  assign rkey  = rnd & KEY_KEEP;
  assign rmask = rnd[127:0];
  assign rwin  = {rnd[255:128], rnd[255:128]} & KEY_KEEP;

  assign nr      = aes_pkg::num_rounds(klen_q);
  assign q       = 5'(cnt_q) + 5'd1;
  assign step    = dec_q ? 4'({1'b0, nr} - q) : cnt_q;
  assign last    = q == {1'b0, nr};
  assign running = (fsm_q == ST_RUN) | (fsm_q == ST_KEYGEN);
  assign upd     = running & (ph_q == 4'(LAST_PH));

  for (genvar i = 0; i < 9; i++) begin : gen_load
    assign load[i] = running & (ph_q == 4'(i));
  end

  assign klen_in = (KeyLenMax == 128) ? aes_pkg::AES_KEY_128 : key_len_i;
  assign key_in  = aes_pkg::key_align(key_i, klen_in);

  //////////////////////////////
  // Masked key-schedule step //
  //////////////////////////////

  logic [31:0] ksub_in0, ksub_in1, ksub0, ksub1, ksub1_adj;
  logic [1:0]  rot_pos;

  assign ksub_in0 = aes_pkg::key_sub_in(klen_q, dec_q, step, win0_q[255:224], win0_q[223:192],
                                        win0_q[191:160], win0_q[159:128], win0_q[95:64], win0_q[31:0]);
  assign ksub_in1 = aes_pkg::key_sub_in(klen_q, dec_q, step, win1_q[255:224], win1_q[223:192],
                                        win1_q[191:160], win1_q[159:128], win1_q[95:64], win1_q[31:0]);

  for (genvar b = 0; b < 4; b++) begin : gen_ksbox
    aes_masked_sbox #(
      .DecEnable(1'b0)
    ) u_sbox (
      .clk_i,
      .rst_ni,
      .clear_i,
      .load_i(load),
      .inv_i (1'b0),
      .x0_i  (ksub_in0[8 * b +: 8]),
      .x1_i  (ksub_in1[8 * b +: 8]),
      .rnd_i (rnd[128 + 8 * b +: 8]),
      .y0_o  (ksub0[8 * b +: 8]),
      .y1_o  (ksub1[8 * b +: 8])
    );
  end

  // aes_key_expand adds Rcon after RotWord; share 1 takes it back out beforehand
  // (RotWord({0, rcon, 0, 0}) = {rcon, 0, 0, 0}), so Rcon lands on share 0 only.
  assign rot_pos   = aes_pkg::key_rot_pos(klen_q, step);
  assign ksub1_adj = ksub1 ^ ((rot_pos == aes_pkg::KEY_ROT_NONE) ? 32'h0 :
                              {8'h0, aes_pkg::key_rcon(klen_q, step), 16'h0});

  aes_key_expand #(
    .KeyLenMax(KeyLenMax),
    .DecEnable(DecEnable),
    .ExtSbox  (1'b1)
  ) u_key_expand0 (
    .key_len_i(klen_q),
    .bwd_i    (dec_q),
    .step_i   (step),
    .win_i    (win0_q),
    .sub_i    (ksub0),
    .sel_i    (6'h0),
    .win_o    (kw0)
  );

  aes_key_expand #(
    .KeyLenMax(KeyLenMax),
    .DecEnable(DecEnable),
    .ExtSbox  (1'b1)
  ) u_key_expand1 (
    .key_len_i(klen_q),
    .bwd_i    (dec_q),
    .step_i   (step),
    .win_i    (win1_q),
    .sub_i    (ksub1_adj),
    .sel_i    (6'h0),
    .win_o    (kw1)
  );

  ////////////////////////
  // Masked round       //
  ////////////////////////

  logic [127:0] sh0, sh1, sub0, sub1;

  assign sh0 = aes_masked_pkg::shift_rows(st0_q, dec_q);
  assign sh1 = aes_masked_pkg::shift_rows(st1_q, dec_q);

  for (genvar b = 0; b < 16; b++) begin : gen_sbox
    aes_masked_sbox #(
      .DecEnable(DecEnable)
    ) u_sbox (
      .clk_i,
      .rst_ni,
      .clear_i,
      .load_i(load & {9{fsm_q == ST_RUN}}),
      .inv_i (dec_q),
      .x0_i  (sh0[8 * b +: 8]),
      .x1_i  (sh1[8 * b +: 8]),
      .rnd_i (rnd[8 * b +: 8]),
      .y0_o  (sub0[8 * b +: 8]),
      .y1_o  (sub1[8 * b +: 8])
    );
  end

  assign rst0 = aes_masked_pkg::round_tail(sub0, kw0[255:128], dec_q, last);
  assign rst1 = aes_masked_pkg::round_tail(sub1, kw1[255:128], dec_q, last);

  ////////////////////////
  // Control            //
  ////////////////////////

  assign accept = in_valid_i & in_ready_o;

  always_comb begin
    fsm_d       = fsm_q;
    key0_d      = key0_q;
    key1_d      = key1_q;
    klen_d      = klen_q;
    kvalid_d    = kvalid_q;
    dkey0_d     = dkey0_q;
    dkey1_d     = dkey1_q;
    dkvalid_d   = dkvalid_q;
    st0_d       = st0_q;
    st1_d       = st1_q;
    mask_d      = mask_q;
    win0_d      = win0_q;
    win1_d      = win1_q;
    cnt_d       = cnt_q;
    ph_d        = ph_q;
    dec_d       = dec_q;
    in_ready_o  = 1'b0;
    out_valid_o = 1'b0;

    if (running) begin
      ph_d = upd ? 4'd0 : ph_q + 4'd1;
    end
    if (upd) begin
      cnt_d  = cnt_q + 4'd1;
      win0_d = kw0 & KEY_KEEP;
      win1_d = kw1 & KEY_KEEP;
    end

    unique case (fsm_q)
      ST_IDLE: begin
        in_ready_o = key_ready_o & ~key_we_i;
        if (key_we_i) begin
          key0_d    = key_in ^ rkey;
          key1_d    = rkey;
          klen_d    = klen_in;
          kvalid_d  = 1'b1;
          dkvalid_d = 1'b0;
          if (DecEnable) begin
            fsm_d  = ST_KEYGEN;
            win0_d = key_in ^ rkey;
            win1_d = rkey;
            cnt_d  = '0;
            ph_d   = '0;
            dec_d  = aes_pkg::AES_DIR_ENC;
          end
        end
      end
      ST_KEYGEN: begin
        if (upd & last) begin
          dkey0_d   = kw0 & KEY_KEEP;
          dkey1_d   = kw1 & KEY_KEEP;
          dkvalid_d = 1'b1;
          fsm_d     = ST_IDLE;
        end
      end
      ST_RUN: begin
        if (upd) begin
          st0_d = rst0;
          st1_d = rst1;
          if (last) begin
            fsm_d = ST_DONE;
          end
        end
      end
      ST_DONE: begin
        out_valid_o = 1'b1;
        in_ready_o  = out_ready_i & key_ready_o;
        if (out_ready_i) begin
          fsm_d = ST_IDLE;
        end
      end
      default: begin
        fsm_d = ST_IDLE;
      end
    endcase

    if (accept) begin
      fsm_d  = ST_RUN;
      cnt_d  = '0;
      ph_d   = '0;
      dec_d  = DecEnable ? in_dec_i : aes_pkg::AES_DIR_ENC;
      win0_d = (dec_d ? dkey0_q : key0_q) ^ rwin;
      win1_d = (dec_d ? dkey1_q : key1_q) ^ rwin;
      st0_d  = in_block_i ^ win0_d[255:128] ^ rmask;
      st1_d  = win1_d[255:128] ^ rmask;
      mask_d = in_mask_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fsm_q    <= ST_IDLE;
      key0_q   <= '0;
      key1_q   <= '0;
      klen_q   <= aes_pkg::AES_KEY_128;
      kvalid_q <= 1'b0;
      st0_q    <= '0;
      st1_q    <= '0;
      mask_q   <= '0;
      win0_q   <= '0;
      win1_q   <= '0;
      cnt_q    <= '0;
      ph_q     <= '0;
      dec_q    <= 1'b0;
    end else if (clear_i) begin
      fsm_q    <= ST_IDLE;
      key0_q   <= '0;
      key1_q   <= '0;
      klen_q   <= aes_pkg::AES_KEY_128;
      kvalid_q <= 1'b0;
      st0_q    <= '0;
      st1_q    <= '0;
      mask_q   <= '0;
      win0_q   <= '0;
      win1_q   <= '0;
      cnt_q    <= '0;
      ph_q     <= '0;
      dec_q    <= 1'b0;
    end else begin
      fsm_q    <= fsm_d;
      key0_q   <= key0_d;
      key1_q   <= key1_d;
      klen_q   <= klen_d;
      kvalid_q <= kvalid_d;
      st0_q    <= st0_d;
      st1_q    <= st1_d;
      mask_q   <= mask_d;
      win0_q   <= win0_d;
      win1_q   <= win1_d;
      cnt_q    <= cnt_d;
      ph_q     <= ph_d;
      dec_q    <= dec_d;
    end
  end

  if (DecEnable) begin : gen_dkey
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dkey0_q   <= '0;
        dkey1_q   <= '0;
        dkvalid_q <= 1'b0;
      end else if (clear_i) begin
        dkey0_q   <= '0;
        dkey1_q   <= '0;
        dkvalid_q <= 1'b0;
      end else begin
        dkey0_q   <= dkey0_d;
        dkey1_q   <= dkey1_d;
        dkvalid_q <= dkvalid_d;
      end
    end
    assign key_ready_o = kvalid_q & dkvalid_q;
  end else begin : gen_no_dkey
    logic unused_dkey;
    assign unused_dkey = ^{dkey0_d, dkey1_d, dkvalid_d};
    assign dkey0_q     = '0;
    assign dkey1_q     = '0;
    assign dkvalid_q   = 1'b0;
    assign key_ready_o = kvalid_q;
  end

  // The shares meet here only, on the way out.
  assign out_data_o = st0_q ^ st1_q ^ mask_q;
  assign busy_o     = fsm_q != ST_IDLE;

`ifdef ASSERT_ON
  // No block is accepted without a usable key, and a key write and a block never together.
  AcceptNeedsKey_A: assert property (@(posedge clk_i) in_valid_i && in_ready_o |-> key_ready_o);
  KeyOrBlock_A: assert property (@(posedge clk_i) !(key_we_i && in_valid_i && in_ready_o));
  // A waiting result stays put until taken.
  OutHold_A: assert property (@(posedge clk_i) fsm_q == ST_DONE && !out_ready_i |->
      fsm_d == ST_DONE && st0_d == st0_q && st1_d == st1_q && mask_d == mask_q);
`endif

endmodule

`default_nettype wire
