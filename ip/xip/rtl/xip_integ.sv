// SPDX-License-Identifier: Apache-2.0
// XIP line integrity: MAC key store, context checks and the line engine (fetch, AES-CMAC, drain).
`default_nettype none

// A context with EN and INTEG set ("armed") is read one whole 32-byte line at a time. For the
// line at logical flash offset A the engine fetches the 32 ciphertext bytes C(A) and the 8-byte
// tag, decrypts the words with the OTFAD keystream into a staging line, and computes
//
//   tag(A) = AES-CMAC(K_mac, nonce || be32(VERSION) || be32(A) || C(A))[0:8]   (SP 800-38B)
//
// on a dedicated encrypt-only AES core: L = AES(0) and K1 = dbl(L) once per run, then
// X0 = AES(nonce||version||A) while the data arrive, X1 = AES(X0 ^ C[0:16]) and
// T = AES(X1 ^ C[16:32] ^ K1). Only when T equals the stored tag (all 64 bits compared at once)
// are the eight plaintext words pushed into the prefetch buffer, one per cycle. A mismatch stops
// the stream and poisons the line: reads of it end in ERR until the next miss or flush.
//
// Layouts (CTX.CTRL.LAYOUT):
//   INTERLEAVED  line A at flash word P = A/4 + 2 * (A - START) / 32, its tag in the two words
//                after it: one stream reads line, tag, line, tag ...
//   SEPARATE     line A at A, its tag at TAGBASE + (A - START) / 4. Tags are read in runs: the
//                stream reads the run's first line, restarts at the run's tags (that line is
//                checked and drained as soon as its own tag is in, while the other tags still
//                arrive), then restarts at the next line and reads on through the run's other
//                lines into the next run's first line. The first run after a miss holds 2 tags,
//                every later run of the same stream TagRun: a jump pays a short tag read, a
//                linear stream pays its two transaction switches once per TagRun lines. A run's
//                second line waits for the run's other TagRun - 1 tags, two switches and itself:
//                at SCK = clk/2 about 32 * TagRun + 105 cycles (359 at TagRun 8; a run's first
//                line 229), which the interconnect's timeout must allow (the SoC description
//                sets both; docs/xip.md, "Tag runs").
// A run stops at the context's END. Context config that cannot be checked (INTEG with a key
// missing or a bad layout) makes reads inside it end in ERR at once (fault_o).
module xip_integ #(
  parameter int unsigned FlashBytes = 16 * 1024 * 1024,
  parameter int unsigned TagRun     = 2,  // SEPARATE: tags per tag transaction of a linear stream (2..8)
  parameter int unsigned SBoxImpl   = 0   // its S-boxes (aes_cipher): 0 tower field, 1 tables
) (
  input  wire logic                              clk_i,
  input  wire logic                              rst_ni,

  // Context configuration (START/END in 1 KB units, nonce byte 0 in bits [63:56]).
  input  wire logic [3:0]                        ctx_en_i,
  input  wire logic [3:0]                        ctx_integ_i,
  input  wire logic [3:0]                        ctx_layout_i,   // 1 = SEPARATE
  input  wire logic [4*14-1:0]                   ctx_start_i,
  input  wire logic [4*15-1:0]                   ctx_end_i,
  input  wire logic [4*64-1:0]                   ctx_nonce_i,
  input  wire logic [4*32-1:0]                   ctx_version_i,
  input  wire logic [4*21-1:0]                   ctx_tagbase_i,  // byte offset [23:3]
  input  wire logic [3:0]                        key_valid_i,    // decryption keys
  output logic      [3:0]                        ctx_en_o,       // EN for OTFAD: unusable INTEG off
  output logic      [3:0]                        armed_o,
  output logic      [3:0]                        bad_cfg_o,

  // MAC key store write port (from the unwrap engine).
  input  wire logic                              mac_we_i,
  input  wire logic [1:0]                        key_ctx_i,
  input  wire logic                              key_ok_i,
  /* verilator tracing_off */
  input  wire logic [127:0]                      key_i,
  /* verilator tracing_on */
  output logic      [3:0]                        mac_valid_o,

  // Request lookup: the first context (lowest number, as OTFAD) that holds the word.
  input  wire logic [$clog2(FlashBytes / 4)-1:0] req_addr_i,
  output logic                                   req_integ_o,    // in a usable armed context
  output logic                                   req_fault_o,    // in an armed, unusable one
  output logic      [1:0]                        req_ctx_o,
  output logic                                   req_wait_o,     // in the line being fetched
  output logic                                   req_poison_o,   // in the line that failed

  // Run control from the read port.
  // A run starts at the word and context the lookup gave for a miss a cycle earlier (the read
  // port's miss stage): start_i carries no path from the request lookup.
  input  wire logic                              start_i,        // miss with req_integ_o
  input  wire logic [$clog2(FlashBytes / 4)-1:0] start_addr_i,
  input  wire logic [1:0]                        start_ctx_i,
  input  wire logic                              abort_i,        // other miss or flush
  output logic                                   run_o,          // the engine owns the stream

  // Flash sequencer.
  output logic                                   seq_start_o,
  output logic [$clog2(FlashBytes / 4)-1:0]      seq_addr_o,
  output logic                                   seq_stop_o,
  output logic                                   seq_hold_o,
  input  wire logic                              seq_word_valid_i,
  input  wire logic [31:0]                       seq_word_i,

  // OTFAD keystream of the data words.
  input  wire logic                              ks_ok_i,
  input  wire logic [31:0]                       ks_word_i,
  output logic                                   ks_take_o,
  output logic      [1:0]                        ks_idx_o,

  // Verified words into the prefetch buffer.
  input  wire logic                              slot_free_i,
  output logic                                   push_o,
  output logic [$clog2(FlashBytes / 4)-1:0]      push_addr_o,
  output logic [31:0]                            push_data_o,
  // A line passed its check (pulse, not with abort_i): its index and plaintext (word 0 in [31:0]).
  output logic                                   line_ok_o,
  output logic [$clog2(FlashBytes / 4)-4:0]      line_idx_o,
  output logic [255:0]                           line_o,

  // A line failed its check (pulse), its context and logical byte offset.
  output logic                                   fail_o,
  output logic      [1:0]                        fail_ctx_o,
  output logic      [23:0]                       fail_addr_o,

  output logic                                   idle_o         // no register would change at this edge
);

  localparam int unsigned AW  = $clog2(FlashBytes / 4);
  localparam int unsigned LW  = AW - 3;             // line index
  localparam int unsigned FW  = 24;                 // word offsets, with room for 5/4 footprints
  localparam int unsigned TW  = $clog2(TagRun + 1);
  localparam int unsigned TWW = $clog2(2 * TagRun + 1);  // tag words of a run
  localparam int unsigned FirstRun = 2;               // tags of a stream's first run
  localparam logic [FW-1:0] FLASH_WORDS = FW'(FlashBytes / 4);

  ///////////////////////
  // MAC key store     //
  ///////////////////////

  /* verilator tracing_off */
  logic [511:0] mkey_q;
  /* verilator tracing_on */
  logic [3:0]   mvalid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mkey_q   <= '0;
      mvalid_q <= '0;
    end else if (mac_we_i) begin
      mkey_q[128 * key_ctx_i +: 128] <= key_ok_i ? key_i : 128'h0;
      mvalid_q[key_ctx_i]            <= key_ok_i;
    end
  end

  assign mac_valid_o = mvalid_q;

  ///////////////////////
  // Context checks    //
  ///////////////////////

  // The checks of each context's configuration and keys are registered: they change only with a
  // register write or an unwrap, each of which flushes the read port, and the read port holds
  // reads in the cycle after the change (xip_periph), before these registers have followed it.
  // Their adders and comparators are thus not on the path of a read's lookup.
  logic [FW-1:0] s_w [4];
  logic [FW-1:0] e_w [4];
  logic [FW-1:0] tb_w [4];
  logic [3:0]    nonempty, cfg_ok, usable_d, armed_d, bad_cfg_d, ctx_en_d, active_d;
  logic [3:0]    usable_q, armed_q, bad_cfg_q, ctx_en_q, active_q;

  always_comb begin
    for (int c = 0; c < 4; c++) begin
      s_w[c]      = FW'({ctx_start_i[14 * c +: 14], 8'h0});
      e_w[c]      = FW'({ctx_end_i[15 * c +: 15], 8'h0});
      tb_w[c]     = FW'({ctx_tagbase_i[21 * c +: 21], 1'b0});
      nonempty[c] = s_w[c] < e_w[c];
      // Interleaved footprint: END + (END - START) / 4; tag area: (END - START) / 4 words.
      if (ctx_layout_i[c]) begin
        cfg_ok[c] = (tb_w[c] + ((e_w[c] - s_w[c]) >> 2) <= FLASH_WORDS)
                  & ((tb_w[c] + ((e_w[c] - s_w[c]) >> 2) <= s_w[c]) | (tb_w[c] >= e_w[c]));
      end else begin
        cfg_ok[c] = e_w[c] + ((e_w[c] - s_w[c]) >> 2) <= FLASH_WORDS;
      end
      usable_d[c]  = key_valid_i[c] & mvalid_q[c] & cfg_ok[c] & nonempty[c];
      armed_d[c]   = ctx_en_i[c] & ctx_integ_i[c];
      bad_cfg_d[c] = armed_d[c] & nonempty[c] & ~cfg_ok[c];
      ctx_en_d[c]  = ctx_en_i[c] & (~ctx_integ_i[c] | usable_d[c]);
      active_d[c]  = ctx_en_d[c] & key_valid_i[c] & nonempty[c];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      usable_q  <= '0;
      armed_q   <= '0;
      bad_cfg_q <= '0;
      ctx_en_q  <= '0;
      active_q  <= '0;
    end else begin
      usable_q  <= usable_d;
      armed_q   <= armed_d;
      bad_cfg_q <= bad_cfg_d;
      ctx_en_q  <= ctx_en_d;
      active_q  <= active_d;
    end
  end

  assign armed_o   = armed_q;
  assign bad_cfg_o = bad_cfg_q;
  assign ctx_en_o  = ctx_en_q;

  // Request lookup.
  logic [FW-1:0] req_w;
  logic [3:0]    in_rng;
  logic          found;
  logic [1:0]    req_ctx;

  assign req_w = FW'(req_addr_i);

  always_comb begin
    found   = 1'b0;
    req_ctx = 2'd0;
    for (int c = 0; c < 4; c++) begin
      in_rng[c] = (active_q[c] | armed_q[c]) & (req_w >= s_w[c]) & (req_w < e_w[c]);
    end
    for (int c = 3; c >= 0; c--) begin
      if (in_rng[c]) begin
        found   = 1'b1;
        req_ctx = 2'(c);
      end
    end
  end

  assign req_integ_o = found & armed_q[req_ctx] & usable_q[req_ctx];
  assign req_fault_o = found & armed_q[req_ctx] & ~usable_q[req_ctx];
  assign req_ctx_o   = req_ctx;

  ///////////////////////
  // Line engine       //
  ///////////////////////

  typedef enum logic [1:0] {
    E_IDLE = 2'd0,
    E_RUN  = 2'd1,
    E_DONE = 2'd2,  // reached END: the stream is stopped
    E_FAIL = 2'd3   // line_q failed: the stream is stopped, reads of it end in ERR
  } estate_e;

  // SEPARATE fetches a run of tags (tf_q) alongside PH_DATA/PH_CHECK/PH_DRAIN.
  typedef enum logic [2:0] {
    PH_DATA  = 3'd1,  // the eight words of line_q
    PH_TAG   = 3'd2,  // INTERLEAVED: the tag after them
    PH_CHECK = 3'd3,  // waiting for the MAC
    PH_DRAIN = 3'd4   // pushing the verified words
  } phase_e;

  typedef enum logic [2:0] {
    M_KEY  = 3'd0,
    M_L    = 3'd1,  // L = AES(0)
    M_B0   = 3'd2,  // X0 = AES(nonce || version || A)
    M_C1   = 3'd3,  // X1 = AES(X0 ^ C[0:16])
    M_C2   = 3'd4,  // T  = AES(X1 ^ C[16:32] ^ K1)
    M_DONE = 3'd5
  } mstate_e;

  estate_e       st_q, st_d;
  phase_e        ph_q, ph_d;
  mstate_e       mst_q, mst_d;
  logic [1:0]    ctx_q, ctx_d, cctx;
  logic [LW-1:0] line_q, line_d, start_line;
  logic [3:0]    widx_q, widx_d;
  logic [TW-1:0] ntag_q, ntag_d, tk_q, tk_d;
  logic          rs_q, rs_d;        // restart the stream at rs_addr_q next cycle
  logic          tf_q, tf_d;        // SEPARATE: the stream delivers the run's tags
  logic [TWW-1:0] tw_q, tw_d;       // tag words received
  logic          tag_in;            // the tag of line_q is in tag_q
  logic [AW-1:0] rs_addr_q, rs_addr_d;
  logic          mfly_q, mfly_d;    // a block is in the MAC core
  logic [31:0]   pt_q [8];          // decrypted words of line_q
  logic [31:0]   ct_q [8];          // their ciphertext
  logic [31:0]   tag_q [2 * TagRun];
  /* verilator tracing_off */
  logic [127:0]  x_q, x_d, k1_q, k1_d;
  /* verilator tracing_on */
  logic [63:0]   t_q, t_d;

  // Configuration of the run's context (of the request's when a run starts).
  logic [FW-1:0] cs_w, ce_w, ctb_w;
  logic          csep;
  // sline: the run's first line when it starts, else the line after line_q.
  logic [FW-1:0] nl_off;            // 2 * (sline - START) / 32 words: INTERLEAVED tags before it
  logic [LW-1:0] nl, sline;
  logic [FW-1:0] lines_left;
  logic [TW-1:0] run_len, first_len;
  logic          last_line;

  assign cctx       = start_i ? start_ctx_i : ctx_q;
  assign cs_w       = s_w[cctx];
  assign ce_w       = e_w[cctx];
  assign ctb_w      = tb_w[cctx];
  assign csep       = ctx_layout_i[cctx];
  assign start_line = LW'(start_addr_i >> 3);
  assign sline      = start_i ? start_line : nl;
  assign nl_off     = (FW'({sline, 3'b0}) - cs_w) >> 2;
  assign lines_left = (ce_w - FW'({sline, 3'b0})) >> 3;
  assign run_len    = (lines_left < FW'(TagRun)) ? TW'(lines_left) : TW'(TagRun);
  assign first_len  = (run_len < TW'(FirstRun)) ? run_len : TW'(FirstRun);
  assign last_line  = FW'({line_q + 1'b1, 3'b0}) == ce_w;

  assign nl = line_q + 1'b1;

  // SEPARATE: the tags of the run that starts at line_q, and the data after that run's first
  // line (line_q - tk_q is the run's first line).
  logic [FW-1:0] cur_off;
  logic [AW-1:0] data_addr, tag_addr, next_addr;
  assign cur_off    = (FW'({line_q, 3'b0}) - cs_w) >> 2;
  assign data_addr  = AW'(FW'({sline, 3'b0}) + (csep ? '0 : nl_off));
  assign tag_addr   = AW'(ctb_w + cur_off);
  assign next_addr  = AW'({line_q - LW'(tk_q) + 1'b1, 3'b0});
  assign tag_in     = !tf_q || tw_q > TWW'({tk_q, 1'b0}) + TWW'(1);

  // MAC core.
  logic         aes_clear, aes_key_we, aes_key_ready, aes_in_valid, aes_in_ready, aes_out_valid;
  logic         aes_busy, ct1, ct2, mac_go, tag_ok;
  /* verilator tracing_off */
  logic [127:0] aes_in, aes_out, c1, c2;
  logic [255:0] aes_key;
  /* verilator tracing_on */
  logic [127:0] b0;
  logic [63:0]  tag_exp;

  assign aes_key = {mkey_q[128 * ctx_q +: 128], 128'h0};
  assign c1      = {aes_pkg::bswap(ct_q[0]), aes_pkg::bswap(ct_q[1]), aes_pkg::bswap(ct_q[2]),
                    aes_pkg::bswap(ct_q[3])};
  assign c2      = {aes_pkg::bswap(ct_q[4]), aes_pkg::bswap(ct_q[5]), aes_pkg::bswap(ct_q[6]),
                    aes_pkg::bswap(ct_q[7])};
  assign b0      = {ctx_nonce_i[64 * ctx_q +: 64], ctx_version_i[32 * ctx_q +: 32],
                    8'h0, 24'({line_q, 5'b0})};
  assign tag_exp = {aes_pkg::bswap(tag_q[2 * tk_q]), aes_pkg::bswap(tag_q[2 * tk_q + 1])};
  // Constant time: one 64-bit equality, no early exit.
  assign tag_ok  = ~|(t_q ^ tag_exp);

  // The first / second ciphertext block of line_q is complete.
  assign ct1 = (ph_q == PH_DATA && widx_q >= 4'd4) || ph_q == PH_TAG || ph_q == PH_CHECK;
  assign ct2 = ph_q == PH_TAG || ph_q == PH_CHECK;

  always_comb begin
    unique case (mst_q)
      M_B0:    aes_in = b0;
      M_C1:    aes_in = x_q ^ c1;
      M_C2:    aes_in = x_q ^ c2 ^ k1_q;
      default: aes_in = '0;
    endcase
  end

  assign mac_go = st_q == E_RUN && !mfly_q && !start_i && !abort_i
               && (mst_q == M_L || mst_q == M_B0 || (mst_q == M_C1 && ct1) || (mst_q == M_C2 && ct2));

  always_comb begin
    mst_d        = mst_q;
    mfly_d       = mfly_q;
    x_d          = x_q;
    k1_d         = k1_q;
    t_d          = t_q;
    aes_clear    = 1'b0;
    aes_key_we   = 1'b0;
    aes_in_valid = 1'b0;
    if (start_i || abort_i) begin
      aes_clear = 1'b1;
      mst_d     = M_KEY;
      mfly_d    = 1'b0;
      k1_d      = '0;
    end else if (st_q == E_RUN) begin
      if (mst_q == M_KEY) begin
        aes_key_we = 1'b1;
        mst_d      = M_L;
      end
      aes_in_valid = mac_go;
      if (mac_go && aes_in_ready) begin
        mfly_d = 1'b1;
      end
      if (mfly_q && aes_out_valid) begin
        mfly_d = 1'b0;
        unique case (mst_q)
          M_L:     begin
            k1_d  = {aes_out[126:0], 1'b0} ^ {120'h0, aes_out[127] ? 8'h87 : 8'h00};
            mst_d = M_B0;
          end
          M_B0:    begin x_d = aes_out; mst_d = M_C1; end
          M_C1:    begin x_d = aes_out; mst_d = M_C2; end
          M_C2:    begin t_d = aes_out[127:64]; mst_d = M_DONE; end
          default: ;
        endcase
      end
    end
    // A verified line drained: the next line's MAC.
    if (st_q == E_RUN && ph_q == PH_DRAIN && push_o && widx_q == 4'd7 && !start_i && !abort_i) begin
      mst_d = M_B0;
    end
  end

  /* verilator tracing_off */
  aes_cipher #(
    .RoundsPerCycle (1),
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
    .in_block_i  (aes_in),
    .out_valid_o (aes_out_valid),
    .out_ready_i (1'b1),
    .out_data_o  (aes_out),
    .busy_o      (aes_busy)
  );
  /* verilator tracing_on */

  // Stream and line state.
  logic accept;

  // The next line's first word, taken while this line is checked and drained. Lines whose tags
  // are already in (SEPARATE) come back to back: without it the stream would stop for the check
  // and the drain (about 21 cycles from a line's last word, the next word due after 16) on every
  // line; INTERLEAVED hides them behind the tag.
  logic        skid_q, skid_d, skid_take;
  logic [31:0] skid_pt_q, skid_ct_q;
  assign skid_take = st_q == E_RUN && !rs_q && !tf_q && !skid_q && ks_ok_i
                  && (ph_q == PH_CHECK || ph_q == PH_DRAIN);

  // Not while a restart is pending: a held word of the old stream would complete.
  assign accept = st_q == E_RUN && !rs_q
               && (tf_q || ph_q == PH_TAG || (ph_q == PH_DATA && ks_ok_i && !skid_q) || skid_take);
  assign seq_hold_o = !accept;
  assign ks_take_o  = st_q == E_RUN && !tf_q && (ph_q == PH_DATA || skid_take) && seq_word_valid_i && !abort_i;
  assign ks_idx_o   = (ph_q == PH_DATA) ? widx_q[1:0] : 2'd0;
  assign push_o      = st_q == E_RUN && ph_q == PH_DRAIN && slot_free_i;
  assign push_addr_o = AW'({line_q, widx_q[2:0]});
  assign push_data_o = pt_q[widx_q[2:0]];
  assign line_ok_o   = st_q == E_RUN && ph_q == PH_CHECK && mst_q == M_DONE && tag_in && tag_ok && !abort_i;
  assign line_idx_o  = line_q;
  assign line_o      = {pt_q[7], pt_q[6], pt_q[5], pt_q[4], pt_q[3], pt_q[2], pt_q[1], pt_q[0]};

  always_comb begin
    st_d       = st_q;
    ph_d       = ph_q;
    ctx_d      = ctx_q;
    line_d     = line_q;
    widx_d     = widx_q;
    ntag_d     = ntag_q;
    tk_d       = tk_q;
    rs_d       = 1'b0;
    rs_addr_d  = rs_addr_q;
    skid_d     = skid_q;
    tf_d       = tf_q;
    tw_d       = tw_q;
    seq_stop_o = 1'b0;
    fail_o     = 1'b0;
    if (abort_i) begin
      st_d   = E_IDLE;
      tf_d   = 1'b0;
      skid_d = 1'b0;
    end else if (start_i) begin
      st_d   = E_RUN;
      ph_d   = PH_DATA;
      ctx_d  = start_ctx_i;
      line_d = start_line;
      widx_d = '0;
      ntag_d = csep ? first_len : TW'(1);
      tk_d   = '0;
      tf_d   = 1'b0;
      tw_d   = '0;
      skid_d = 1'b0;
    end else if (st_q != E_RUN) begin
      skid_d = 1'b0;
    end else begin
      // SEPARATE: the run's tags, then on with the data after the run's first line.
      if (tf_q && seq_word_valid_i) begin
        tw_d = tw_q + 1'b1;
        if (tw_q == TWW'({ntag_q, 1'b0}) - TWW'(1)) begin
          tf_d = 1'b0;
          if (ntag_q != TW'(1)) begin
            rs_d      = 1'b1;
            rs_addr_d = next_addr;
          end
        end
      end
      if (skid_take && seq_word_valid_i) begin
        skid_d = 1'b1;
      end
      unique case (ph_q)
        PH_DATA: if (skid_q) begin
          // The skid word is word 0 (a line's data starts at widx_q = 0).
          widx_d = widx_q + 1'b1;
          skid_d = 1'b0;
        end else if (seq_word_valid_i && !tf_q) begin
          widx_d = widx_q + 1'b1;
          if (widx_q == 4'd7) begin
            widx_d = '0;
            ph_d   = csep ? PH_CHECK : PH_TAG;
            // The first line of a run: now its tags.
            if (csep && tk_q == '0) begin
              tf_d      = 1'b1;
              tw_d      = '0;
              rs_d      = 1'b1;
              rs_addr_d = tag_addr;
            end
          end
        end
        PH_TAG: if (seq_word_valid_i) begin
          widx_d = widx_q + 1'b1;
          if (widx_q == 4'd1) begin
            widx_d = '0;
            ph_d   = PH_CHECK;
          end
        end
        PH_CHECK: if (mst_q == M_DONE && tag_in) begin
          if (tag_ok) begin
            ph_d = PH_DRAIN;
          end else begin
            st_d       = E_FAIL;
            skid_d     = 1'b0;
            seq_stop_o = 1'b1;
            fail_o     = 1'b1;
          end
        end
        PH_DRAIN: if (push_o) begin
          widx_d = widx_q + 1'b1;
          if (widx_q == 4'd7) begin
            widx_d = '0;
            if (last_line) begin
              st_d       = E_DONE;
              seq_stop_o = 1'b1;
              skid_d     = 1'b0;
            end else begin
              line_d = nl;
              ph_d   = PH_DATA;
              if (csep) begin
                tk_d = tk_q + 1'b1;
                if (tk_q + 1'b1 == ntag_q) begin
                  // The stream reads on into the next run's first line.
                  tk_d   = '0;
                  ntag_d = run_len;
                end
              end
            end
          end
        end
        default: ph_d = PH_CHECK;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q      <= E_IDLE;
      ph_q      <= PH_DATA;
      mst_q     <= M_KEY;
      ctx_q     <= '0;
      line_q    <= '0;
      widx_q    <= '0;
      ntag_q    <= '0;
      tk_q      <= '0;
      rs_q      <= 1'b0;
      rs_addr_q <= '0;
      skid_q    <= 1'b0;
      tf_q      <= 1'b0;
      tw_q      <= '0;
      mfly_q    <= 1'b0;
      x_q       <= '0;
      k1_q      <= '0;
      t_q       <= '0;
    end else begin
      st_q      <= st_d;
      ph_q      <= ph_d;
      mst_q     <= mst_d;
      ctx_q     <= ctx_d;
      line_q    <= line_d;
      widx_q    <= widx_d;
      ntag_q    <= ntag_d;
      tk_q      <= tk_d;
      rs_q      <= rs_d;
      rs_addr_q <= rs_addr_d;
      skid_q    <= skid_d;
      tf_q      <= tf_d;
      tw_q      <= tw_d;
      mfly_q    <= mfly_d;
      x_q       <= x_d;
      k1_q      <= k1_d;
      t_q       <= t_d;
    end
  end

  // Staging line and tags: written as words arrive (no reset needed: read only when complete).
  logic stage_we;
  assign stage_we = st_q == E_RUN && seq_word_valid_i && !start_i && !abort_i;

  always_ff @(posedge clk_i) begin
    if (stage_we) begin
      if (tf_q) begin
        tag_q[tw_q[$clog2(2 * TagRun)-1:0]] <= seq_word_i;
      end else if (ph_q == PH_DATA) begin
        pt_q[widx_q[2:0]] <= seq_word_i ^ ks_word_i;
        ct_q[widx_q[2:0]] <= seq_word_i;
      end else if (ph_q == PH_TAG) begin
        tag_q[widx_q[$clog2(2 * TagRun)-1:0]] <= seq_word_i;
      end else if (skid_take) begin
        skid_pt_q <= seq_word_i ^ ks_word_i;
        skid_ct_q <= seq_word_i;
      end
    end else if (st_q == E_RUN && ph_q == PH_DATA && skid_q) begin
      pt_q[widx_q[2:0]] <= skid_pt_q;
      ct_q[widx_q[2:0]] <= skid_ct_q;
    end
  end

  assign run_o        = st_q != E_IDLE;
  assign seq_start_o  = start_i || (rs_q && !abort_i && st_q == E_RUN);
  assign seq_addr_o   = start_i ? data_addr : rs_addr_q;
  assign req_wait_o   = st_q == E_RUN && req_integ_o && req_ctx == ctx_q && LW'(req_addr_i >> 3) == line_q;
  assign req_poison_o = st_q == E_FAIL && LW'(req_addr_i >> 3) == line_q;
  assign fail_ctx_o   = ctx_q;
  assign fail_addr_o  = 24'({line_q, 5'b0});

  // Simulation clock gating: the engine state would stay, neither the staging line nor the MAC key
  // store is written and the MAC core is empty and gets nothing. The registered context checks
  // follow their inputs in the cycle after a register write or an unwrap, which is never idle
  // (xip_periph: reg_req_q, flush_q), so they are not compared here: their adders would put the
  // configuration arithmetic on idle_o's path. x_q, k1_q and t_q are left out of
  // the comparison: they change only on start_i / abort_i (which clear the core) or when a block
  // leaves the core (mfly_q falls), so they are not compared with key-derived data.
  assign idle_o = !mac_we_i && !stage_we && !aes_busy && !aes_clear && !aes_key_we && !aes_in_valid
               && {st_d, ph_d, mst_d, ctx_d, line_d, widx_d, ntag_d, tk_d, rs_d, rs_addr_d, tf_d, tw_d,
                   mfly_d, skid_d}
               == {st_q, ph_q, mst_q, ctx_q, line_q, widx_q, ntag_q, tk_q, rs_q, rs_addr_q, tf_q, tw_q,
                   mfly_q, skid_q};

  logic unused;
  assign unused = aes_key_ready;

endmodule

`default_nettype wire
