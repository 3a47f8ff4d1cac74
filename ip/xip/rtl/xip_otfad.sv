// SPDX-License-Identifier: Apache-2.0
// OTFAD keystream: four AES-128-CTR contexts, key store and a two-block keystream queue.
`default_nettype none

// The read stream of the flash sequencer is a run of consecutive words starting at the word
// given with restart_i. This block walks the same 16-byte blocks ahead of the data: for each
// block it looks up the first active context whose [START, END) holds the block (1 KB units),
// and either queues "plaintext" at once or runs AES-128 on the counter block
//
//   counter = nonce (64 bits, byte 0 first) || 64-bit big-endian (flash byte offset / 16)
//
// and queues the keystream. So a region [S, E) is ordinary AES-CTR with the single initial
// counter nonce || (S / 16) as a 128-bit big-endian integer (the counter never carries into the
// nonce half: offsets are below 2^24).
//
// The queue holds two blocks (the block being received and the next). A restart zeroises the
// AES core (clear_i) so the new stream's first block starts at once: key load in the cycle after
// restart_i, block accepted one cycle later, keystream queued 1 + ceil(10 / RoundsPerCycle)
// cycles after that. ks_ok_o says the mask for the next word is known; ks_word_o is that mask
// (zero for plaintext blocks), to be XORed onto the word in the cycle it completes.
//
// Keys arrive only from the key-unwrap engine (key_we_i) and are never readable.
module xip_otfad #(
  parameter int unsigned BlkW           = 20,  // block address bits: flash bytes / 16
  parameter int unsigned RoundsPerCycle = 1,   // AES rounds per clock of the keystream core
  parameter int unsigned SBoxImpl       = 0    // its S-boxes (aes_cipher): 0 tower field, 1 tables
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,

  // Context configuration (from the register block): START/END in 1 KB units of flash offset,
  // nonce byte 0 in bits [63:56].
  input  wire logic [3:0]       ctx_en_i,
  input  wire logic [4*14-1:0]  ctx_start_i,
  input  wire logic [4*15-1:0]  ctx_end_i,
  input  wire logic [4*64-1:0]  ctx_nonce_i,
  // Integrity contexts (EN and INTEG): their blocks are queued only for the line engine
  // (integ_mode_i), and a plain stream stops at them.
  input  wire logic [3:0]       ctx_armed_i,
  input  wire logic             integ_mode_i,

  // Key store write port: an unwrapped key (ok) or an invalidation (!ok).
  input  wire logic             key_we_i,
  input  wire logic [1:0]       key_ctx_i,
  input  wire logic             key_ok_i,
  /* verilator tracing_off */
  input  wire logic [127:0]     key_i,
  /* verilator tracing_on */
  output logic      [3:0]       key_valid_o,
  output logic      [3:0]       ctx_active_o,

  // The read stream.
  input  wire logic             restart_i,
  input  wire logic [BlkW-1:0]  restart_blk_i,
  input  wire logic             word_valid_i,   // a word of the stream completes
  input  wire logic [1:0]       word_idx_i,     // its index in its block
  output logic      [31:0]      ks_word_o,      // mask for the completing word
  output logic                  ks_ok_o,        // mask for the next word is ready

  output logic                  idle_o          // no register would change at this edge
);

  localparam logic [BlkW:0] NUM_BLKS = {1'b1, {BlkW{1'b0}}};

  /* verilator tracing_off */
  logic [511:0] key_q;  // context c at [128*c +: 128]
  /* verilator tracing_on */
  logic [3:0]   kvalid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      key_q    <= '0;
      kvalid_q <= '0;
    end else if (key_we_i) begin
      key_q[128 * key_ctx_i +: 128] <= key_ok_i ? key_i : 128'h0;
      kvalid_q[key_ctx_i]           <= key_ok_i;
    end
  end

  assign key_valid_o = kvalid_q;

  ///////////////////////
  // Context lookup    //
  ///////////////////////

  logic [BlkW:0] gen_q, gen_d;  // next block to queue
  logic [14:0]   gen_kb;        // its flash offset in 1 KB units
  logic [3:0]    hit;
  logic          hit_any, sel_any, fenced;
  logic [1:0]    hit_ctx;

  assign gen_kb = 15'(gen_q[BlkW-1:0] >> 6);

  // The first context (lowest number) holding the block decides. Without armed contexts this
  // is the first active one, as before integrity mode existed.
  always_comb begin
    sel_any = 1'b0;
    hit_ctx = 2'd0;
    for (int c = 0; c < 4; c++) begin
      ctx_active_o[c] = ctx_en_i[c] & kvalid_q[c]
                      & ({1'b0, ctx_start_i[14 * c +: 14]} < ctx_end_i[15 * c +: 15]);
      hit[c] = (ctx_active_o[c] | ctx_armed_i[c]) & (gen_kb >= {1'b0, ctx_start_i[14 * c +: 14]})
             & (gen_kb < ctx_end_i[15 * c +: 15]);
    end
    for (int c = 3; c >= 0; c--) begin
      if (hit[c]) begin
        sel_any = 1'b1;
        hit_ctx = 2'(c);
      end
    end
    fenced  = sel_any & ((ctx_armed_i[hit_ctx] != integ_mode_i) | ~ctx_active_o[hit_ctx]);
    hit_any = sel_any & ~fenced;
  end

  ///////////////////////
  // Keystream core    //
  ///////////////////////

  logic         aes_clear, aes_key_we, aes_key_ready, aes_in_valid, aes_in_ready;
  logic         aes_out_valid, aes_busy;
  logic [127:0] aes_ctr;
  /* verilator tracing_off */
  logic [127:0] aes_out;
  logic [255:0] aes_key;
  /* verilator tracing_on */

  assign aes_key = {key_q[128 * hit_ctx +: 128], 128'h0};
  assign aes_ctr = {ctx_nonce_i[64 * hit_ctx +: 64], {(64 - BlkW){1'b0}}, gen_q[BlkW-1:0]};

  /* verilator tracing_off */
  aes_cipher #(
    .RoundsPerCycle (RoundsPerCycle),
    .Pipelined      (1'b0),
    .DecEnable      (1'b0),
    .KeyLenMax      (128),
    .SBoxImpl       (SBoxImpl)
  ) u_aes (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .clear_i     (aes_clear),
    .key_i       (aes_key),
    .key_len_i   (aes_pkg::AES_KEY_128),
    .key_we_i    (aes_key_we),
    .key_ready_o (aes_key_ready),
    .in_valid_i  (aes_in_valid),
    .in_ready_o  (aes_in_ready),
    .in_dec_i    (aes_pkg::AES_DIR_ENC),
    .in_block_i  (aes_ctr),
    .out_valid_o (aes_out_valid),
    .out_ready_i (1'b1),
    .out_data_o  (aes_out),
    .busy_o      (aes_busy)
  );
  /* verilator tracing_on */

  ///////////////////////
  // Keystream queue   //
  ///////////////////////

  /* verilator tracing_off */
  logic [255:0] ks_q, ks_d;  // entry e at [128*e +: 128]
  /* verilator tracing_on */
  logic [1:0]   enc_q, enc_d, rdy_q, rdy_d;
  logic         head_q, head_d;
  logic [1:0]   cnt_q, cnt_d;
  logic         run_q, run_d;     // a stream is being followed
  logic         wait_q, wait_d;   // a block is in the AES core ...
  logic         widx_q, widx_d;   // ... for this entry
  logic         kld_q, kld_d;     // the AES core holds the key of context kctx_q
  logic [1:0]   kctx_q, kctx_d;
  logic         tail, push, pop;
  logic [127:0] head_ks;

  assign tail    = head_q ^ cnt_q[0];  // with cnt_q < 2: the free entry
  assign head_ks = ks_q[128 * head_q +: 128];

  always_comb begin
    gen_d        = gen_q;
    ks_d         = ks_q;
    enc_d        = enc_q;
    rdy_d        = rdy_q;
    head_d       = head_q;
    run_d        = run_q;
    wait_d       = wait_q;
    widx_d       = widx_q;
    kld_d        = kld_q & ~key_we_i;
    kctx_d       = kctx_q;
    aes_clear    = 1'b0;
    aes_key_we   = 1'b0;
    aes_in_valid = 1'b0;
    push         = 1'b0;
    pop          = 1'b0;

    if (restart_i) begin
      // Forget the old stream, including a block still in the core.
      gen_d     = {1'b0, restart_blk_i};
      run_d     = 1'b1;
      wait_d    = 1'b0;
      kld_d     = 1'b0;
      aes_clear = 1'b1;
      rdy_d     = '0;
      cnt_d     = '0;
    end else begin
      if (aes_out_valid && wait_q) begin
        ks_d[128 * widx_q +: 128] = aes_out;
        rdy_d[widx_q]             = 1'b1;
        wait_d                    = 1'b0;
      end
      if (run_q && cnt_q != 2'd2 && gen_q != NUM_BLKS && !fenced) begin
        if (!hit_any) begin
          push        = 1'b1;
          enc_d[tail] = 1'b0;
          rdy_d[tail] = 1'b1;
        end else if (!wait_q && !aes_busy) begin
          if (kld_q && kctx_q == hit_ctx && !key_we_i) begin
            aes_in_valid = 1'b1;
            if (aes_in_ready) begin
              push        = 1'b1;
              enc_d[tail] = 1'b1;
              rdy_d[tail] = 1'b0;
              wait_d      = 1'b1;
              widx_d      = tail;
            end
          end else if (!key_we_i) begin
            aes_key_we = 1'b1;
            kld_d      = 1'b1;
            kctx_d     = hit_ctx;
          end
        end
      end
      if (push) begin
        gen_d = gen_q + 1'b1;
      end
      pop = word_valid_i && word_idx_i == 2'd3 && cnt_q != 2'd0;
      if (pop) begin
        head_d = ~head_q;
        rdy_d[head_q] = 1'b0;
      end
      cnt_d = cnt_q + {1'b0, push} - {1'b0, pop};
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gen_q  <= '0;
      ks_q   <= '0;
      enc_q  <= '0;
      rdy_q  <= '0;
      head_q <= 1'b0;
      cnt_q  <= '0;
      run_q  <= 1'b0;
      wait_q <= 1'b0;
      widx_q <= 1'b0;
      kld_q  <= 1'b0;
      kctx_q <= '0;
    end else begin
      gen_q  <= gen_d;
      ks_q   <= ks_d;
      enc_q  <= enc_d;
      rdy_q  <= rdy_d;
      head_q <= head_d;
      cnt_q  <= cnt_d;
      run_q  <= run_d;
      wait_q <= wait_d;
      widx_q <= widx_d;
      kld_q  <= kld_d;
      kctx_q <= kctx_d;
    end
  end

  logic         unused_key_ready;
  assign unused_key_ready = aes_key_ready;

  // Simulation clock gating: the queue state would stay, no key is written and the AES core is
  // empty and gets nothing. ks_q is left out of the comparison: it is written only when a block
  // leaves the core (wait_q falls), so it is not compared with key-derived data.
  assign idle_o = !key_we_i && !aes_busy && !aes_clear && !aes_key_we && !aes_in_valid
               && {gen_d, enc_d, rdy_d, head_d, cnt_d, run_d, wait_d, widx_d, kld_d, kctx_d}
               == {gen_q, enc_q, rdy_q, head_q, cnt_q, run_q, wait_q, widx_q, kld_q, kctx_q};

  // Word w of a block is bytes 4w..4w+3, byte 4w in bits [7:0] of the bus word; keystream
  // byte j sits in bits [127-8j -: 8].
  logic [31:0] ks_be;
  assign ks_be     = head_ks[127 - 32 * word_idx_i -: 32];
  assign ks_word_o = enc_q[head_q] ? {ks_be[7:0], ks_be[15:8], ks_be[23:16], ks_be[31:24]} : 32'h0;
  assign ks_ok_o   = (cnt_q != 2'd0) & rdy_q[head_q];

endmodule

`default_nettype wire
