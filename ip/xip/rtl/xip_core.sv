// SPDX-License-Identifier: Apache-2.0
// XIP core: bus-neutral read port, prefetch buffer, flash sequencer and OTFAD decryption.
`default_nettype none

// Read port: req_i with a word address, held until ack_o (the same cycle when the word is in the
// prefetch buffer: rdata_o is read combinationally from it). Byte lanes are not needed: the whole
// word is returned and the master picks its bytes.
//
// Prefetch buffer: PrefetchWords consecutive flash words [base, base + cnt), filled by one
// streaming flash read that keeps going after the word that started it. A request is
//   - a hit when its word is in the buffer (ack in the same cycle);
//   - a wait when the stream will deliver it within WAIT_WORDS words (no new transaction);
//   - a miss otherwise: the buffer restarts at the requested word and a new flash transaction
//     begins (the open one, if any, ends at once). The miss is registered and acted on in the
//     next cycle (miss stage, miss_q): the hit/miss decision of a bus request then ends in a
//     register instead of running on into the sequencer, OTFAD and line engine in the same
//     cycle. It costs one cycle per miss; the request waits through it.
// Verified lines (integrity contexts only): the last VerifiedLines lines the line engine checked
// and drained stay in a small buffer of their own, so a read of one answers at once (as a hit)
// even after the prefetch buffer moved on; a miss elsewhere does not evict them, a flush does.
// Words behind the last requested word are dropped to make room, so the stream runs ahead of a
// linear reader by up to PrefetchWords words and pauses (SCK held low, CS# low) when the buffer
// is full of words nobody has passed yet. A CPU line refill (8-beat incrementing burst) is thus
// one flash transaction whose words are acknowledged as they arrive.
//
// Decryption: words are XORed with the OTFAD keystream in the cycle they complete, before they
// enter the buffer. The keystream of the stream's first block is computed while command,
// address, mode and dummy clocks go out, later blocks while earlier data streams in; the stream
// is held only if a keystream block is late, which the parameter choice rules out (docs/xip.md),
// so encrypted reads take exactly as many cycles as plaintext ones.
module xip_core #(
  parameter int unsigned FlashBytes       = 16 * 1024 * 1024,  // power of two, at most 16 MB
  parameter int unsigned PrefetchWords    = 16,                // power of two, at least 8
  parameter int unsigned KsRoundsPerCycle = 1,
  parameter bit          Integrity        = 1'b1,              // line integrity (xip_integ)
  parameter int unsigned VerifiedLines    = 4,                 // verified-line buffer (0: none)
  parameter int unsigned TagRun           = 2,                 // SEPARATE tags per run (xip_integ)
  parameter int unsigned SBoxImpl         = 0                  // AES S-boxes (aes_cipher)
) (
  input  wire logic                               clk_i,
  input  wire logic                               rst_ni,

  input  wire logic                               req_i,
  input  wire logic [$clog2(FlashBytes / 4)-1:0]  req_addr_i,
  output logic                                    ack_o,
  output logic                                    err_o,    // a line that failed or cannot be checked
  output logic [31:0]                             rdata_o,

  input  wire logic [7:0]                         cfg_div_i,
  input  wire logic [3:0]                         cfg_dummy_i,
  input  wire logic [1:0]                         cfg_cmd_i,
  input  wire logic                               cfg_cont_i,
  input  wire logic                               flush_i,  // end the stream, empty the buffer

  input  wire logic [3:0]                         ctx_en_i,
  input  wire logic [4*14-1:0]                    ctx_start_i,
  input  wire logic [4*15-1:0]                    ctx_end_i,
  input  wire logic [4*64-1:0]                    ctx_nonce_i,
  input  wire logic [3:0]                         ctx_integ_i,
  input  wire logic [3:0]                         ctx_layout_i,
  input  wire logic [4*32-1:0]                    ctx_version_i,
  input  wire logic [4*21-1:0]                    ctx_tagbase_i,
  // OTP policy in force: a read outside every usable integrity context ends in ERR.
  input  wire logic                               integ_only_i,
  // Key stores (one unwrap writes both): key_ok_i / mac_ok_i store a key, else erase it.
  input  wire logic                               key_we_i,
  input  wire logic [1:0]                         key_ctx_i,
  input  wire logic                               key_ok_i,
  input  wire logic                               mac_ok_i,
  /* verilator tracing_off */
  input  wire logic [127:0]                       key_i,
  input  wire logic [127:0]                       mac_key_i,
  /* verilator tracing_on */
  output logic      [3:0]                         key_valid_o,
  output logic      [3:0]                         ctx_active_o,
  output logic      [3:0]                         mac_valid_o,
  output logic      [3:0]                         bad_cfg_o,
  // An integrity failure (pulse): a line failed its check, or a read hit an unusable context.
  output logic                                    integ_fail_o,
  output logic      [1:0]                         integ_ctx_o,
  output logic      [23:0]                        integ_addr_o,

  output logic                                    busy_o,
  output logic                                    cont_o,
  output logic                                    stat_hit_o,   // pulses, one per acknowledged read
  output logic                                    stat_wait_o,
  output logic                                    stat_miss_o,

  output logic                                    sck_o,
  output logic                                    cs_no,
  output logic      [3:0]                         io_o,
  output logic      [3:0]                         io_oe_o,
  input  wire logic [3:0]                         io_i,

  output logic                                    idle_o    // no register would change at this edge
);

  localparam int unsigned AW          = $clog2(FlashBytes / 4);  // word address bits
  localparam int unsigned PW          = $clog2(PrefetchWords);
  localparam int unsigned WAIT_WORDS  = 2;
  localparam logic [AW:0] FLASH_WORDS = {1'b1, {AW{1'b0}}};

  // Sequencer.
  logic        seq_start, seq_stop, seq_hold, seq_word_valid;
  logic [31:0] seq_word;
  logic [21:0] seq_word_addr;
  logic        seq_idle, otfad_idle, integ_idle;
  // OTFAD.
  logic        ks_ok;
  logic [31:0] ks_word;
  logic [3:0]  otfad_en, armed;
  // Line integrity engine (xip_integ).
  logic          eng_integ, eng_fault, eng_wait, eng_poison, eng_run, eng_seq_start, eng_seq_stop;
  logic          eng_hold, eng_ks_take, eng_push, eng_fail;
  logic [1:0]    eng_ks_idx, eng_fail_ctx, eng_req_ctx;
  logic [AW-1:0] eng_seq_addr, eng_push_addr;
  logic [31:0]   eng_push_data;
  logic [23:0]   eng_fail_addr;
  logic          err, take_plain, take_line;
  logic [AW-1:0] line_w, mline_w, take_addr;
  logic [31:0]   take_data;
  // Verified-line buffer.
  logic          eng_line_ok, lc_hit;
  logic [AW-4:0] eng_line_idx;
  logic [255:0]  eng_line;
  logic [31:0]   lc_word;

  // Buffer state.
  logic [31:0] buf_q [PrefetchWords];
  logic [AW:0] base_q, base_d, last_q, last_d, end_w, req_w, ahead, rel;
  logic [PW:0] cnt_q, cnt_d;
  logic        active_q, active_d;
  logic        req, hit, buf_hit, pending, miss, slot_free, at_end, take;
  logic        missed_q, missed_d, waited_q, waited_d;
  // Miss stage: the registered miss, its word and how it is served.
  logic          miss_q, minteg_q, restart, plain_restart, integ_restart;
  logic [AW-1:0] maddr_q;
  logic [1:0]    mctx_q;

  assign req_w = {1'b0, req_addr_i};
  assign end_w = base_q + (AW + 1)'(cnt_q);
  assign rel   = req_w - base_q;
  assign ahead = req_w - end_w;

  // While the line engine owns the stream, only a read of the line it fetches waits; a plain
  // stream never waits for words of an integrity context (OTFAD holds it at their border).
  // A request that missed waits in the cycle its miss is acted on.
  assign req        = req_i && !flush_i && !miss_q;
  assign buf_hit    = req && rel < (AW + 1)'(cnt_q);
  assign hit        = buf_hit || (req && lc_hit);
  assign err        = req && !hit && (eng_fault || eng_poison || (integ_only_i && !eng_integ));
  assign pending    = req && !hit && !err
                   && (eng_run ? eng_wait : active_q && !eng_integ && ahead < (AW + 1)'(WAIT_WORDS));
  assign miss       = req && !hit && !err && !pending;
  // Acted on one cycle later, unless a flush came in between (the request is then looked up again).
  assign restart       = miss_q && !flush_i;
  assign plain_restart = restart && !minteg_q;
  assign integ_restart = restart && minteg_q;
  assign slot_free  = cnt_q != (PW + 1)'(PrefetchWords) || base_q < last_q;
  assign at_end     = end_w == FLASH_WORDS;
  assign seq_hold   = eng_run ? eng_hold : (!slot_free || !ks_ok || at_end);
  assign take_plain = active_q && seq_word_valid && !restart && !flush_i && !eng_run;
  assign take_line  = eng_push && !restart && !flush_i;
  assign take       = take_plain || take_line;
  assign take_addr  = eng_run ? eng_push_addr : AW'(seq_word_addr);
  assign take_data  = eng_run ? eng_push_data : seq_word ^ ks_word;
  // A line-integrity read starts the buffer at its line.
  assign line_w     = {req_addr_i[AW-1:3], 3'b0};
  assign mline_w    = {maddr_q[AW-1:3], 3'b0};

  assign seq_start = plain_restart || eng_seq_start;
  assign seq_stop  = flush_i || eng_seq_stop;

  always_comb begin
    base_d   = base_q;
    cnt_d    = cnt_q;
    last_d   = last_q;
    active_d = active_q;
    if (flush_i) begin
      cnt_d    = '0;
      active_d = 1'b0;
    end else if (restart) begin
      base_d   = {1'b0, minteg_q ? mline_w : maddr_q};
      last_d   = {1'b0, minteg_q ? mline_w : maddr_q};
      cnt_d    = '0;
      active_d = 1'b1;
    end else begin
      if (buf_hit || pending) begin
        last_d = req_w;
      end
      if (take) begin
        if (cnt_q == (PW + 1)'(PrefetchWords)) begin
          base_d = base_q + 1'b1;
        end else begin
          cnt_d = cnt_q + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      base_q   <= '0;
      cnt_q    <= '0;
      last_q   <= '0;
      active_q <= 1'b0;
      missed_q <= 1'b0;
      waited_q <= 1'b0;
      miss_q   <= 1'b0;
    end else begin
      base_q   <= base_d;
      cnt_q    <= cnt_d;
      last_q   <= last_d;
      active_q <= active_d;
      missed_q <= missed_d;
      waited_q <= waited_d;
      miss_q   <= miss;
    end
  end

  // How the missed word is served, as the lookup said in the miss cycle (a flush, the only thing
  // that changes the lookup's inputs, cancels the restart).
  always_ff @(posedge clk_i) begin
    if (miss) begin
      maddr_q  <= req_addr_i;
      minteg_q <= eng_integ;
      mctx_q   <= eng_req_ctx;
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) begin
      buf_q[take_addr[PW-1:0]] <= take_data;
    end
  end

  assign ack_o   = hit;
  assign err_o   = err;
  // Both hold the same verified plaintext when both hit.
  assign rdata_o = lc_hit ? lc_word : buf_q[req_addr_i[PW-1:0]];

  // Statistics: how each acknowledged read was served.
  assign missed_d    = req_i && !ack_o && !err_o && (missed_q || miss);
  assign waited_d    = req_i && !ack_o && !err_o && (waited_q || pending || miss);
  assign stat_hit_o  = ack_o && !missed_q && !waited_q;
  assign stat_wait_o = ack_o && !missed_q && waited_q;
  assign stat_miss_o = ack_o && missed_q;

  xip_seq u_seq (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .div_i        (cfg_div_i),
    .dummy_i      (cfg_dummy_i),
    .cmd_i        (cfg_cmd_i),
    .cont_i       (cfg_cont_i),
    .start_i      (seq_start),
    .start_word_i (22'(plain_restart ? maddr_q : eng_seq_addr)),
    .stop_i       (seq_stop),
    .hold_i       (seq_hold),
    .word_valid_o (seq_word_valid),
    .word_o       (seq_word),
    .word_addr_o  (seq_word_addr),
    .busy_o       (busy_o),
    .cont_o       (cont_o),
    .sck_o        (sck_o),
    .cs_no        (cs_no),
    .io_o         (io_o),
    .io_oe_o      (io_oe_o),
    .io_i         (io_i),
    .idle_o       (seq_idle)
  );

  xip_otfad #(
    .BlkW           (AW - 2),
    .RoundsPerCycle (KsRoundsPerCycle),
    .SBoxImpl       (SBoxImpl)
  ) u_otfad (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .ctx_en_i      (otfad_en),
    .ctx_start_i   (ctx_start_i),
    .ctx_end_i     (ctx_end_i),
    .ctx_nonce_i   (ctx_nonce_i),
    .ctx_armed_i   (armed),
    .integ_mode_i  (eng_run),
    .key_we_i      (key_we_i),
    .key_ctx_i     (key_ctx_i),
    .key_ok_i      (key_ok_i),
    .key_i         (key_i),
    .key_valid_o   (key_valid_o),
    .ctx_active_o  (ctx_active_o),
    .restart_i     (restart),
    .restart_blk_i (minteg_q ? {maddr_q[AW-1:3], 1'b0} : maddr_q[AW-1:2]),
    .word_valid_i  (eng_run ? eng_ks_take : take_plain),
    .word_idx_i    (eng_run ? eng_ks_idx : seq_word_addr[1:0]),
    .ks_word_o     (ks_word),
    .ks_ok_o       (ks_ok),
    .idle_o        (otfad_idle)
  );

  // The stream delivers words in order from the word that started it.
`ifdef ASSERT_ON
  StreamOrder_A: assert property (@(posedge clk_i) take |-> {1'b0, take_addr} == end_w);
`endif

  if (Integrity) begin : gen_integ
    xip_integ #(
      .FlashBytes (FlashBytes),
      .TagRun     (TagRun),
      .SBoxImpl   (SBoxImpl)
    ) u_integ (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .ctx_en_i         (ctx_en_i),
      .ctx_integ_i      (ctx_integ_i),
      .ctx_layout_i     (ctx_layout_i),
      .ctx_start_i      (ctx_start_i),
      .ctx_end_i        (ctx_end_i),
      .ctx_nonce_i      (ctx_nonce_i),
      .ctx_version_i    (ctx_version_i),
      .ctx_tagbase_i    (ctx_tagbase_i),
      .key_valid_i      (key_valid_o),
      .ctx_en_o         (otfad_en),
      .armed_o          (armed),
      .bad_cfg_o        (bad_cfg_o),
      .mac_we_i         (key_we_i),
      .key_ctx_i        (key_ctx_i),
      .key_ok_i         (mac_ok_i),
      .key_i            (mac_key_i),
      .mac_valid_o      (mac_valid_o),
      .req_addr_i       (req_addr_i),
      .req_integ_o      (eng_integ),
      .req_fault_o      (eng_fault),
      .req_ctx_o        (eng_req_ctx),
      .req_wait_o       (eng_wait),
      .req_poison_o     (eng_poison),
      .start_i          (integ_restart),
      .start_addr_i     (maddr_q),
      .start_ctx_i      (mctx_q),
      .abort_i          (flush_i || plain_restart),
      .run_o            (eng_run),
      .seq_start_o      (eng_seq_start),
      .seq_addr_o       (eng_seq_addr),
      .seq_stop_o       (eng_seq_stop),
      .seq_hold_o       (eng_hold),
      .seq_word_valid_i (seq_word_valid),
      .seq_word_i       (seq_word),
      .ks_ok_i          (ks_ok),
      .ks_word_i        (ks_word),
      .ks_take_o        (eng_ks_take),
      .ks_idx_o         (eng_ks_idx),
      .slot_free_i      (slot_free),
      .push_o           (eng_push),
      .push_addr_o      (eng_push_addr),
      .push_data_o      (eng_push_data),
      .line_ok_o        (eng_line_ok),
      .line_idx_o       (eng_line_idx),
      .line_o           (eng_line),
      .fail_o           (eng_fail),
      .fail_ctx_o       (eng_fail_ctx),
      .fail_addr_o      (eng_fail_addr),
      .idle_o           (integ_idle)
    );
  end else begin : gen_no_integ
    assign otfad_en      = ctx_en_i;
    assign armed         = '0;
    assign bad_cfg_o     = '0;
    assign mac_valid_o   = '0;
    assign eng_integ     = 1'b0;
    assign eng_fault     = 1'b0;
    assign eng_req_ctx   = '0;
    assign eng_wait      = 1'b0;
    assign eng_poison    = 1'b0;
    assign eng_run       = 1'b0;
    assign eng_seq_start = 1'b0;
    assign eng_seq_addr  = '0;
    assign eng_seq_stop  = 1'b0;
    assign eng_hold      = 1'b0;
    assign eng_ks_take   = 1'b0;
    assign eng_ks_idx    = '0;
    assign eng_push      = 1'b0;
    assign eng_push_addr = '0;
    assign eng_push_data = '0;
    assign eng_line_ok = 1'b0;
    assign eng_line_idx  = '0;
    assign eng_line      = '0;
    assign eng_fail      = 1'b0;
    assign eng_fail_ctx  = '0;
    assign eng_fail_addr = '0;
    assign integ_idle    = 1'b1;
    logic unused_integ;
    assign unused_integ = ^{ctx_integ_i, ctx_layout_i, ctx_version_i, ctx_tagbase_i, mac_ok_i, mac_key_i,
                            mctx_q, integ_restart};
  end

  // Verified-line buffer: a line enters in the cycle it passes its check (not with a flush, which
  // empties the buffer), round robin, unless it is already in: a read that moves on before the
  // line is drained into the prefetch buffer still finds it later. The lookup is one tag compare
  // per line beside the prefetch buffer's; plain CTR reads never hit it.
  if (Integrity && VerifiedLines > 0) begin : gen_lines
    localparam int unsigned VW = (VerifiedLines > 1) ? $clog2(VerifiedLines) : 1;
    logic [255:0]           lc_data_q [VerifiedLines];
    logic [AW-4:0]          lc_tag_q [VerifiedLines];
    logic [VerifiedLines-1:0] lc_valid_q;
    logic [VW-1:0]          lc_next_q, lc_way;
    logic                   lc_dup, lc_fill;

    always_comb begin
      lc_hit = 1'b0;
      lc_way = '0;
      lc_dup = 1'b0;
      for (int i = 0; i < VerifiedLines; i++) begin
        if (lc_valid_q[i] && lc_tag_q[i] == req_addr_i[AW-1:3]) begin
          lc_hit = 1'b1;
          lc_way = VW'(i);
        end
        lc_dup = lc_dup | (lc_valid_q[i] && lc_tag_q[i] == eng_line_idx);
      end
    end

    assign lc_word = lc_data_q[lc_way][32 * req_addr_i[2:0] +: 32];
    assign lc_fill = eng_line_ok && !flush_i && !lc_dup;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        lc_valid_q <= '0;
        lc_next_q  <= '0;
      end else if (flush_i) begin
        lc_valid_q <= '0;
      end else if (lc_fill) begin
        lc_valid_q[lc_next_q] <= 1'b1;
        lc_next_q             <= (lc_next_q == VW'(VerifiedLines - 1)) ? '0 : lc_next_q + 1'b1;
      end
    end

    always_ff @(posedge clk_i) begin
      if (lc_fill) begin
        lc_data_q[lc_next_q] <= eng_line;
        lc_tag_q[lc_next_q]  <= eng_line_idx;
      end
    end
  end else begin : gen_no_lines
    assign lc_hit  = 1'b0;
    assign lc_word = '0;
    logic unused_lines;
    assign unused_lines = ^{eng_line_ok, eng_line_idx, eng_line};
  end

  // Failures for INTEG_STATUS: a line that failed its check, or a read that ended in ERR.
  assign integ_fail_o = eng_fail || err;
  assign integ_ctx_o  = eng_fail ? eng_fail_ctx : eng_req_ctx;
  assign integ_addr_o = eng_fail ? eng_fail_addr : 24'({line_w, 2'b0});

  // Simulation clock gating: no read request or flush, the buffer state would stay and no word
  // is written into it, and the sequencer, OTFAD and the line engine are idle. A paused stream
  // with a full buffer rests here until a read moves last_q.
  assign idle_o = !req_i && !flush_i && !take && !miss_q
               && {base_d, cnt_d, last_d, active_d, missed_d, waited_d}
               == {base_q, cnt_q, last_q, active_q, missed_q, waited_q}
               && seq_idle && otfad_idle && integ_idle;

  logic unused_addr;
  assign unused_addr = ^{seq_word_addr[21:PW], take_addr[AW-1:PW]};

endmodule

`default_nettype wire
