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
//     begins (the open one, if any, ends at once).
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
  parameter int unsigned KsRoundsPerCycle = 1
) (
  input  wire logic                               clk_i,
  input  wire logic                               rst_ni,

  input  wire logic                               req_i,
  input  wire logic [$clog2(FlashBytes / 4)-1:0]  req_addr_i,
  output logic                                    ack_o,
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
  input  wire logic                               key_we_i,
  input  wire logic [1:0]                         key_ctx_i,
  input  wire logic                               key_ok_i,
  /* verilator tracing_off */
  input  wire logic [127:0]                       key_i,
  /* verilator tracing_on */
  output logic      [3:0]                         key_valid_o,
  output logic      [3:0]                         ctx_active_o,

  output logic                                    busy_o,
  output logic                                    cont_o,
  output logic                                    stat_hit_o,   // pulses, one per acknowledged read
  output logic                                    stat_wait_o,
  output logic                                    stat_miss_o,

  output logic                                    sck_o,
  output logic                                    cs_no,
  output logic      [3:0]                         io_o,
  output logic      [3:0]                         io_oe_o,
  input  wire logic [3:0]                         io_i
);

  localparam int unsigned AW          = $clog2(FlashBytes / 4);  // word address bits
  localparam int unsigned PW          = $clog2(PrefetchWords);
  localparam int unsigned WAIT_WORDS  = 2;
  localparam logic [AW:0] FLASH_WORDS = {1'b1, {AW{1'b0}}};

  // Sequencer.
  logic        seq_start, seq_stop, seq_hold, seq_word_valid;
  logic [31:0] seq_word;
  logic [21:0] seq_word_addr;
  // OTFAD.
  logic        ks_ok;
  logic [31:0] ks_word;

  // Buffer state.
  logic [31:0] buf_q [PrefetchWords];
  logic [AW:0] base_q, base_d, last_q, last_d, end_w, req_w, ahead, rel;
  logic [PW:0] cnt_q, cnt_d;
  logic        active_q, active_d;
  logic        hit, pending, miss, slot_free, at_end, take;
  logic        missed_q, missed_d, waited_q, waited_d;

  assign req_w = {1'b0, req_addr_i};
  assign end_w = base_q + (AW + 1)'(cnt_q);
  assign rel   = req_w - base_q;
  assign ahead = req_w - end_w;

  assign hit       = req_i && !flush_i && rel < (AW + 1)'(cnt_q);
  assign pending   = req_i && !flush_i && !hit && active_q && ahead < (AW + 1)'(WAIT_WORDS);
  assign miss      = req_i && !flush_i && !hit && !pending;
  assign slot_free = cnt_q != (PW + 1)'(PrefetchWords) || base_q < last_q;
  assign at_end    = end_w == FLASH_WORDS;
  assign seq_hold  = !slot_free || !ks_ok || at_end;
  assign take      = active_q && seq_word_valid && !miss && !flush_i;

  assign seq_start = miss;
  assign seq_stop  = flush_i;

  always_comb begin
    base_d   = base_q;
    cnt_d    = cnt_q;
    last_d   = last_q;
    active_d = active_q;
    if (flush_i) begin
      cnt_d    = '0;
      active_d = 1'b0;
    end else if (miss) begin
      base_d   = req_w;
      last_d   = req_w;
      cnt_d    = '0;
      active_d = 1'b1;
    end else begin
      if (hit || pending) begin
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
    end else begin
      base_q   <= base_d;
      cnt_q    <= cnt_d;
      last_q   <= last_d;
      active_q <= active_d;
      missed_q <= missed_d;
      waited_q <= waited_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (take) begin
      buf_q[seq_word_addr[PW-1:0]] <= seq_word ^ ks_word;
    end
  end

  assign ack_o   = hit;
  assign rdata_o = buf_q[req_addr_i[PW-1:0]];

  // Statistics: how each acknowledged read was served.
  assign missed_d    = req_i && !ack_o && (missed_q || miss);
  assign waited_d    = req_i && !ack_o && (waited_q || pending || miss);
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
    .start_word_i (22'(req_addr_i)),
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
    .io_i         (io_i)
  );

  xip_otfad #(
    .BlkW           (AW - 2),
    .RoundsPerCycle (KsRoundsPerCycle)
  ) u_otfad (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .ctx_en_i      (ctx_en_i),
    .ctx_start_i   (ctx_start_i),
    .ctx_end_i     (ctx_end_i),
    .ctx_nonce_i   (ctx_nonce_i),
    .key_we_i      (key_we_i),
    .key_ctx_i     (key_ctx_i),
    .key_ok_i      (key_ok_i),
    .key_i         (key_i),
    .key_valid_o   (key_valid_o),
    .ctx_active_o  (ctx_active_o),
    .restart_i     (seq_start),
    .restart_blk_i (req_addr_i[AW-1:2]),
    .word_valid_i  (take),
    .word_idx_i    (seq_word_addr[1:0]),
    .ks_word_o     (ks_word),
    .ks_ok_o       (ks_ok)
  );

  // The stream delivers words in order from the word that started it.
`ifdef ASSERT_ON
  StreamOrder_A: assert property (@(posedge clk_i) take |-> {1'b0, AW'(seq_word_addr)} == end_w);
`endif

  logic unused_addr;
  assign unused_addr = ^seq_word_addr[21:PW];

endmodule

`default_nettype wire
