// SPDX-License-Identifier: Apache-2.0
// Compact AES cipher core: 32-bit column-serial datapath, one column per cycle, four S-boxes.

`default_nettype none

// Same ports and handshake as aes_cipher_core (see there), but the mask comes ungated with an
// enable (in_mask_en_i), added in the last round's AddRoundKey. A block is accepted with
// AddRoundKey(rk0) applied to all 128 bits, then each round takes four cycles, one state column
// per cycle through four S-boxes, (Inv)MixColumns and AddRoundKey. Cycles per block = latency =
// 1 + 4 * Nr (41, 49, 57 for AES-128/192/256). Round keys are computed on the fly, one key-
// schedule step per round (aes_key_expand, its own four forward S-boxes), forward from the cipher
// key for encryption and backward from the decryption key (the last window of the schedule) for
// decryption; the core derives the decryption key once per key write in Nr cycles
// (key_ready_o low meanwhile).
//
// State as four row delay lines. Every run cycle each row shifts by one byte and takes byte r
// of the new column at delay 0, so after a round column c sits at delay 3 - c of every row. The
// byte (Inv)ShiftRows sends to the column of cycle k then sits at a fixed delay per row and
// cycle (the rows are longer than four bytes so that it is still there), so ShiftRows costs no
// permutation network, only a 2:1 choice of tap in rows 1 to 3:
//   encryption, row r: delay 3 - r while k + r < 4, else 7 - r;
//   decryption, row r: delay 3 + r while k >= r,    else r - 1.
module aes_cipher_col #(
  parameter bit          DecEnable = 1'b1,  // 0: encryption only
  parameter int unsigned KeyLenMax = 256,   // 128: AES-128 only; 256: AES-128/192/256
  // S-boxes: 0, 1 as aes_sbox_sel (datapath; the key step keeps the tower field); 2 all eight
  // as block RAM ROMs (aes_sbox_rom), read one cycle ahead (see "ROM S-boxes" below)
  parameter int unsigned SBoxImpl  = 0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,      // zeroise every register in one cycle

  // Write-only key port; key_len_i is sampled with key_we_i, which is ignored while busy_o.
  input  logic [255:0] key_i,
  input  logic [1:0]   key_len_i,
  input  logic         key_we_i,
  output logic         key_ready_o,  // key loaded and decryption key derived

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic         in_dec_i,
  input  logic [127:0] in_block_i,
  input  logic [127:0] in_mask_i,     // XORed onto the result where in_mask_en_i (else ignored)
  input  logic         in_mask_en_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_data_o,

  output logic         busy_o        // a block in the core or key derivation running
);
  localparam logic [255:0] KEY_KEEP = (KeyLenMax == 128) ? {{128{1'b1}}, 128'h0} : {256{1'b1}};
  // Row lengths in bytes: the deepest tap of each row (encryption taps only without DecEnable).
  localparam int unsigned L1 = 7;
  localparam int unsigned L2 = 6;
  localparam int unsigned L3 = DecEnable ? 7 : 5;
  localparam bit          Rom = SBoxImpl == 2;

  ////////////////////
  // Key registers  //
  ////////////////////

  logic [255:0] key_q;           // cipher key: window 0 of the schedule
  logic [255:0] dkey_q;          // decryption key: window Nr of the schedule
  logic [1:0]   klen_q, klen_d;
  logic         kvalid_q;
  logic [3:0]   nr;
  logic [255:0] key_in;          // key_i as a key load stores it (the window register takes it too)
  logic         key_load, dkey_load;
  logic [255:0] dkey_new;

  // Wide data registers (key, decryption key, window, rows, mask) are wiped synchronously, by
  // clear_i or while rst_ni is low (aes_key_regs' SyncWipe): an iCE40 flip-flop has an
  // asynchronous or a synchronous reset, not both, so an asynchronous reset plus clear_i would
  // cost a LUT4 per bit. Reset therefore wipes them at the first clock edge it is held over (as
  // the block-RAM read registers); the control registers keep the asynchronous reset, so the
  // core is idle, with no key, from the moment rst_ni falls.
  logic wipe;
  assign wipe = ~rst_ni | clear_i;

  logic [255:0] key_r, dkey_r;   // as aes_key_regs holds them

  // Computed and masked on this side of the port, as in aes_cipher_core (why: aes_key_regs).
  assign nr     = aes_pkg::num_rounds(klen_q);
  assign key_in = aes_pkg::key_align(key_i, (KeyLenMax == 128) ? aes_pkg::AES_KEY_128 : key_len_i);
  assign key_q  = key_r & KEY_KEEP;
  assign dkey_q = dkey_r & KEY_KEEP;

  aes_key_regs #(
    .DecEnable(DecEnable),
    .KeyLenMax(KeyLenMax),
    .SyncWipe (1'b1)
  ) u_key_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clear_i    (clear_i),
    .key_i      (key_i),
    .key_len_i  (key_len_i),
    .key_load_i (key_load),
    .dkey_load_i(DecEnable & dkey_load),
    .dkey_i     (DecEnable ? dkey_new : '0),  // a constant when unused: no net to keep
    .key_o      (key_r),
    .klen_o     (klen_q),
    .klen_d_o   (klen_d),
    .kvalid_o   (kvalid_q),
    .dkey_o     (dkey_r),
    .key_ready_o(key_ready_o)
  );

  /////////////////
  // Round keys  //
  /////////////////

  typedef enum logic [1:0] {
    ST_IDLE   = 2'd0,
    ST_RUN    = 2'd1,
    ST_DONE   = 2'd2,
    ST_KEYGEN = 2'd3
  } state_e;

  state_e       fsm_q, fsm_d;
  logic [255:0] win_q, win_d;      // key window of the round that runs (ROM core: the round before)
  logic [255:0] win_new;           // what win_we writes into it
  logic         win_we;
  logic [255:0] kd, kin, kw;       // stored key for a new block; key step input and output
  logic [3:0]   rnd_q, rnd_d;      // rounds done (RUN) or key steps done (KEYGEN)
  logic [1:0]   col_q, col_d;      // column of this cycle
  logic         dec_q, dec_d;
  logic [4:0]   q;                 // number of the round that runs
  logic [3:0]   qs, step;
  logic         last_round, accept, idle, kdec;
  logic [31:0]  rk, ksub;

  assign q          = {1'b0, rnd_q} + 5'd1;
  assign last_round = q == {1'b0, nr};

  // S-box cores (SBoxImpl 0, 1): the key step runs one round ahead, so round keys come straight
  // from win_q: a block is taken with window 1 (encryption) or Nr - 1 (decryption) computed
  // from the stored key, and each round computes the next window from win_q, written at its last
  // column. Derivation steps forward from the cipher key, starting from key_q in the cycle after
  // the key write.
  // ROM core (SBoxImpl 2): the SubWord of a step is a ROM read, so the step runs in the round
  // whose key it makes, from win_q = the previous window, whose SubWord byte addresses were
  // presented when win_q was written. A block is taken with win_q = the stored key; a key write
  // puts the key into win_q and derivation steps from there.
  assign idle = (fsm_q == ST_IDLE) | (fsm_q == ST_DONE);
  assign kdec = idle ? (DecEnable & in_dec_i) : dec_q;
  assign kd   = kdec ? dkey_q : key_q;
  if (Rom) begin : gen_kin_rom
    assign kin = win_q;
    assign qs  = rnd_q;
  end else begin : gen_kin_comb
    assign kin = idle ? kd : (((fsm_q == ST_KEYGEN) && (rnd_q == '0)) ? key_q : win_q);
    assign qs  = idle ? '0 : ((fsm_q == ST_KEYGEN) ? rnd_q : q[3:0]);
  end
  assign step = kdec ? 4'(nr - 4'd1 - qs) : qs;

  aes_key_expand #(
    .KeyLenMax(KeyLenMax),
    .DecEnable(DecEnable),
    .ExtSbox  (Rom)
  ) u_key_expand (
    .key_len_i(klen_q),
    .bwd_i    (kdec),
    .step_i   (step),
    .win_i    (kin),
    .sub_i    (ksub),
    .sel_i    (6'h0),
    .win_o    (kw)
  );

  logic [127:0] rk_win;  // the round key of the round that runs
  assign rk_win = Rom ? kw[255:128] : win_q[255:128];
  always_comb begin
    unique case (col_q)
      2'd1:    rk = rk_win[95:64];
      2'd2:    rk = rk_win[63:32];
      2'd3:    rk = rk_win[31:0];
      default: rk = rk_win[127:96];
    endcase
  end
  assign dkey_new = kw & KEY_KEEP;

  ///////////////////////////
  // Column datapath       //
  ///////////////////////////

  logic [8*4-1:0]  row0_q, row0_d;
  logic [8*L1-1:0] row1_q, row1_d;
  logic [8*L2-1:0] row2_q, row2_d;
  logic [8*L3-1:0] row3_q, row3_d;
  logic [127:0]    mask_q, mask_d, blk, res;
  logic            mask_en_q, mask_en_d;
  logic [31:0]     col_in, col_sub, col_key, col_mix, col_out;
  logic            dec;

  assign dec = DecEnable & dec_q;

  // (Inv)ShiftRows by tap choice, row r in bits [31 - 8 * r -: 8] of the column. The candidate
  // bytes of the rows, t: row 0 delay 3; row 1 delays 0, 2, 4, 6; row 2 delays 1, 5; row 3
  // delays 0, 2, 4, L3 - 1 (first in the top byte).
  function automatic logic [31:0] col_taps(logic [8*11-1:0] t, logic [1:0] col, logic inv);
    col_taps[31:24] = t[8 * 10 +: 8];
    if (inv) begin
      col_taps[23:16] = (col >= 2'd1) ? t[8 * 7 +: 8] : t[8 * 9 +: 8];
      col_taps[15:8]  = (col >= 2'd2) ? t[8 * 4 +: 8] : t[8 * 5 +: 8];
      col_taps[7:0]   = (col == 2'd3) ? t[8 * 0 +: 8] : t[8 * 2 +: 8];
    end else begin
      col_taps[23:16] = (col <= 2'd2) ? t[8 * 8 +: 8] : t[8 * 6 +: 8];
      col_taps[15:8]  = (col <= 2'd1) ? t[8 * 5 +: 8] : t[8 * 4 +: 8];
      col_taps[7:0]   = (col == 2'd0) ? t[8 * 3 +: 8] : t[8 * 1 +: 8];
    end
  endfunction

  logic [8*11-1:0] taps_q;
  assign taps_q = {row0_q[8 * 3 +: 8], row1_q[8 * 0 +: 8], row1_q[8 * 2 +: 8], row1_q[8 * 4 +: 8],
                   row1_q[8 * 6 +: 8], row2_q[8 * 1 +: 8], row2_q[8 * 5 +: 8], row3_q[8 * 0 +: 8],
                   row3_q[8 * 2 +: 8], row3_q[8 * 4 +: 8], row3_q[8 * (L3 - 1) +: 8]};

  if (Rom) begin : gen_rom
    // ROM S-boxes: the ROMs' read registers are the pipeline stage, so each cycle presents the
    // bytes next cycle's column reads: the candidate taps one delay further down the rows, with
    // the byte this cycle's column writes at delay 0 bypassed (encryption row 3 and decryption
    // row 1 at column 0 read it in the next cycle); at a block's accept, the loaded block's
    // bytes. The key ROMs read the SubWord bytes of the next key step whenever the window is
    // written, and hold them for the round (read enable). Zeroise: address 0 reads 0
    // (aes_sbox_rom); the datapath ROMs read it in every cycle outside a run and under clear_i,
    // the key ROMs under clear_i and while no key is loaded (after clear and in reset), so no
    // read register holds a data- or key-derived byte one edge after clear_i or in reset.
    logic [31:0]     addr_col, addr_key;
    logic            addr_inv, dec_next, run_col, kflush, en_key;
    logic [3:0]      nr_next, step_next;
    logic [8*11-1:0] taps_shift, taps_next;

    // Byte of the block being loaded at delay d of row r.
    function automatic logic [7:0] blk_byte(logic [127:0] b, int unsigned r, int unsigned d);
      blk_byte = b[127 - 8 * r - 32 * (3 - d) -: 8];
    endfunction

    assign taps_shift = {row0_q[8 * 2 +: 8], col_out[23:16], row1_q[8 * 1 +: 8], row1_q[8 * 3 +: 8],
                         row1_q[8 * 5 +: 8], row2_q[8 * 0 +: 8], row2_q[8 * 4 +: 8], col_out[7:0],
                         row3_q[8 * 1 +: 8], row3_q[8 * 3 +: 8], row3_q[8 * (L3 - 2) +: 8]};
    // Column 0 reads delays 0 to 3 only; the deeper candidates keep their shifted value.
    assign taps_next  = accept ?
        {blk_byte(blk, 0, 3), blk_byte(blk, 1, 0), blk_byte(blk, 1, 2), taps_shift[8 * 7 +: 16],
         blk_byte(blk, 2, 1), taps_shift[8 * 4 +: 8], blk_byte(blk, 3, 0), blk_byte(blk, 3, 2),
         taps_shift[8 * 0 +: 16]} : taps_shift;

    assign dec_next  = DecEnable & dec_d;
    assign nr_next   = aes_pkg::num_rounds(klen_d);
    assign step_next = dec_next ? 4'(nr_next - 4'd1 - rnd_d) : rnd_d;
    assign run_col   = ~clear_i & (accept | (fsm_q == ST_RUN));
    assign addr_col  = run_col ? col_taps(taps_next, col_d, dec_next) : '0;
    assign addr_inv  = run_col & dec_next;
    assign kflush    = clear_i | ~(kvalid_q | key_load);
    assign en_key    = kflush | win_we;
    assign addr_key  = kflush ? '0 : aes_pkg::key_sub_in(klen_d, dec_next, step_next,
        win_new[255:224], win_new[223:192], win_new[191:160], win_new[159:128], win_new[95:64],
        win_new[31:0]);

    for (genvar b = 0; b < 4; b++) begin : gen_sbox
      aes_sbox_rom #(
        .DecEnable(DecEnable)
      ) u_sbox (
        .clk_i,
        .en_i  (1'b1),
        .data_i(addr_col[8 * b +: 8]),
        .inv_i (addr_inv),
        .data_o(col_sub[8 * b +: 8])
      );
      aes_sbox_rom #(
        .DecEnable(1'b0)
      ) u_key_sbox (
        .clk_i,
        .en_i  (en_key),
        .data_i(addr_key[8 * b +: 8]),
        .inv_i (1'b0),
        .data_o(ksub[8 * b +: 8])
      );
    end
    logic unused_col_in;
    assign unused_col_in = ^col_in;
  end else begin : gen_comb
    for (genvar b = 0; b < 4; b++) begin : gen_sbox
      aes_sbox_sel #(
        .Impl     (SBoxImpl),
        .DecEnable(DecEnable)
      ) u_sbox (
        .data_i(col_in[8 * b +: 8]),
        .inv_i (dec),
        .data_o(col_sub[8 * b +: 8])
      );
    end
    assign ksub = '0;
    logic unused_key_ahead;  // the ROM reads the key step's S-boxes a cycle ahead from these
    assign unused_key_ahead = ^{klen_d, kvalid_q};
  end
  assign col_in = col_taps(taps_q, col_q, dec);

  // As aes_round, one column: decryption adds the key before InvMixColumns, which is MixColumns
  // after the {04}x^2+{05} pre-multiplication. The last round also adds the mask's column (the
  // mask register turns by a column every run cycle, so its top word is this cycle's column):
  // 32 XORs here instead of 128 on the result.
  always_comb begin
    col_key = dec ? (col_sub ^ rk) : col_sub;
    col_mix = aes_pkg::mix_column(dec ? aes_pkg::inv_mix_pre(col_key) : col_key);
    if (last_round) begin
      col_out = (dec ? col_key : (col_key ^ rk)) ^ (mask_q[127:96] & {32{mask_en_q}});
    end else begin
      col_out = dec ? col_mix : (col_mix ^ rk);
    end
  end

  // Block loaded with rk0 added: column c to delay 3 - c of every row. Result read the same way.
  assign blk = in_block_i ^ kd[255:128];
  for (genvar c = 0; c < 4; c++) begin : gen_res
    assign res[127 - 32 * c -: 32] = {row0_q[8 * (3 - c) +: 8], row1_q[8 * (3 - c) +: 8],
                                      row2_q[8 * (3 - c) +: 8], row3_q[8 * (3 - c) +: 8]};
  end

  assign accept = in_valid_i & in_ready_o;

  always_comb begin
    fsm_d       = fsm_q;
    row0_d      = row0_q;
    row1_d      = row1_q;
    row2_d      = row2_q;
    row3_d      = row3_q;
    mask_d      = mask_q;
    mask_en_d   = mask_en_q;
    win_we      = 1'b0;
    rnd_d       = rnd_q;
    col_d       = col_q;
    dec_d       = dec_q;
    in_ready_o  = 1'b0;
    out_valid_o = 1'b0;
    key_load    = 1'b0;
    dkey_load   = 1'b0;
    unique case (fsm_q)
      ST_IDLE: begin
        in_ready_o = key_ready_o & ~key_we_i;
        if (key_we_i) begin
          key_load = 1'b1;
          win_we   = Rom;
          if (DecEnable) begin
            fsm_d = ST_KEYGEN;
            rnd_d = '0;
            dec_d = aes_pkg::AES_DIR_ENC;
          end
        end
      end
      ST_KEYGEN: begin
        rnd_d  = rnd_q + 4'd1;
        win_we = 1'b1;
        if (last_round) begin
          dkey_load = 1'b1;
          fsm_d     = ST_IDLE;
        end
      end
      ST_RUN: begin
        row0_d = {row0_q[8 * 3 - 1:0], col_out[31:24]};
        row1_d = {row1_q[8 * (L1 - 1) - 1:0], col_out[23:16]};
        row2_d = {row2_q[8 * (L2 - 1) - 1:0], col_out[15:8]};
        row3_d = {row3_q[8 * (L3 - 1) - 1:0], col_out[7:0]};
        mask_d = {mask_q[95:0], mask_q[127:96]};
        col_d  = col_q + 2'd1;
        if (col_q == 2'd3) begin
          win_we = 1'b1;
          rnd_d = rnd_q + 4'd1;
          if (last_round) begin
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
      rnd_d  = '0;
      col_d  = '0;
      dec_d  = DecEnable ? in_dec_i : aes_pkg::AES_DIR_ENC;
      win_we = 1'b1;
      mask_d    = in_mask_i;
      mask_en_d = in_mask_en_i;
      for (int d = 0; d < 4; d++) begin
        row0_d[8 * d +: 8] = blk[127 - 32 * (3 - d) -: 8];
        row1_d[8 * d +: 8] = blk[119 - 32 * (3 - d) -: 8];
        row2_d[8 * d +: 8] = blk[111 - 32 * (3 - d) -: 8];
        row3_d[8 * d +: 8] = blk[103 - 32 * (3 - d) -: 8];
      end
    end
  end

  // The window is written at a block's accept (its first window), each round's last column and
  // each derivation step (the next window), and in the ROM core at a key write (the key).
  always_comb begin
    if (Rom && key_load) begin
      win_new = key_in & KEY_KEEP;
    end else if (Rom && accept) begin
      win_new = kd;
    end else begin
      win_new = kw & KEY_KEEP;
    end
  end
  assign win_d = win_we ? win_new : win_q;

  always_ff @(posedge clk_i) begin
    if (wipe) begin
      row0_q <= '0;
      row1_q <= '0;
      row2_q <= '0;
      row3_q <= '0;
      mask_q <= '0;
      win_q  <= '0;
    end else begin
      row0_q <= row0_d;
      row1_q <= row1_d;
      row2_q <= row2_d;
      row3_q <= row3_d;
      mask_q <= mask_d;
      win_q  <= win_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fsm_q     <= ST_IDLE;
      mask_en_q <= 1'b0;
      rnd_q     <= '0;
      col_q     <= '0;
      dec_q     <= 1'b0;
    end else if (clear_i) begin
      fsm_q     <= ST_IDLE;
      mask_en_q <= 1'b0;
      rnd_q     <= '0;
      col_q     <= '0;
      dec_q     <= 1'b0;
    end else begin
      fsm_q     <= fsm_d;
      mask_en_q <= mask_en_d;
      rnd_q     <= rnd_d;
      col_q     <= col_d;
      dec_q     <= dec_d;
    end
  end

  assign out_data_o = res;
  assign busy_o     = fsm_q != ST_IDLE;

  ////////////////
  // Assertions //
  ////////////////

  // Written without rst_ni (see aes_cipher_core); each property also holds in reset.
`ifdef ASSERT_ON
  // A waiting result stays put until taken.
  OutHold_A: assert property (@(posedge clk_i) fsm_q == ST_DONE && !out_ready_i |->
      fsm_d == ST_DONE && row0_d == row0_q && row1_d == row1_q && row2_d == row2_q &&
      row3_d == row3_q && mask_d == mask_q && mask_en_d == mask_en_q);
  // No block is accepted without a usable key.
  AcceptNeedsKey_A: assert property (@(posedge clk_i) in_valid_i && in_ready_o |-> key_ready_o);
  // Round keys stay still while blocks are in flight: no key write is taken while busy.
  KeyLoadIdle_A: assert property (@(posedge clk_i) key_load |-> !busy_o);
  // A key write and a block are never taken together.
  KeyOrBlock_A: assert property (@(posedge clk_i) !(key_load && in_valid_i && in_ready_o));
  // Rounds are whole: a block leaves the run state only after the fourth column.
  WholeRounds_A: assert property (@(posedge clk_i) fsm_q == ST_RUN && fsm_d == ST_DONE |->
      col_q == 2'd3);
`endif

endmodule

`default_nettype wire
