// SPDX-License-Identifier: Apache-2.0
// AES mode engine: ECB/CBC/CTR/GCM around aes_cipher_core, with IV/counter, key, zeroise and errors.

`default_nettype none

// Bus-neutral top of the AES IP: a register block, a DMA path or an XIP read path sits on it.
// Blocks stream in and out as 128-bit words with valid/ready on both sides (byte 0 of a block in
// bits [127:120]). The configuration inputs (mode_i, dir_i, key_len_i, ctr_width_i) must not
// change while busy_o is high; the key and IV may only be written while busy_o is low.
//
//   ECB:     out = AES(in)                      (or AES^-1(in) with dir_i = DEC)
//   CBC enc: out = AES(in ^ C_prev)             C_prev = chaining value, updated on output
//   CBC dec: out = AES^-1(in) ^ C_prev          C_prev updated on input (pipelines fully)
//   CTR:     out = AES(counter) ^ in            counter incremented in its low 32/64/128 bits
//   GCM:     SP 800-38D (GhashBits > 0): AAD blocks hashed; TEXT blocks as CTR from inc32(J0)
//            (out zero past gcm_bytes_i), their ciphertext hashed; tag = E_K(J0) ^ S
//
// A GCM message: key loaded; write the IV (96-bit: bytes 0..11) and pulse gcm_start_i in mode
// GCM (gcm_phase_i = IV then feeds an IV of another length as IV blocks); offer AAD blocks, then
// TEXT blocks, each with gcm_phase_i and gcm_bytes_i (fewer than 16 valid bytes ends the phase);
// pulse gcm_final_i. gcm_tag_valid_o rises with the tag (gcm_tag_o, encryption only) and, on
// decryption, gcm_tag_mismatch_o compares all gcm_tag_len_i bytes with gcm_tag_i in one cycle.
// H = E_K(0^128) is derived by the first message after a key load (one block time), J0's block
// by each message. A partial TEXT block waits until the blocks before it are out.
//
// iv_o reads back the chaining value (CBC) or the next counter block (CTR); the key cannot be
// read back. err_o is raised, and the engine stops taking and giving blocks, on: a block
// offered with a mode, direction or key length the parameters removed or that are not encoded,
// a key length other than the loaded key's, a configuration that differs from the one of the
// blocks in flight, a block before any key, or a key or IV write while busy; in GCM also: a GCM
// block outside a message, out of phase order (IV, AAD, TEXT) or after a partial block of its
// phase, a direction change or another mode within a message, gcm_start_i while busy,
// gcm_final_i outside a message, a key or IV write within one. clear_i zeroises every register
// (key, decryption key, round-key state, IV, data, H, GCM state, error) in one cycle.
module aes_engine #(
  parameter int unsigned RoundsPerCycle = 1,     // 1, 2, 3 or 5; 0: full unroll
  parameter bit          Pipelined      = 1'b0,  // 1: one register stage per round (needs 0 above)
  parameter bit          DecEnable      = 1'b1,  // 0: encrypt-only (ECB/CBC decrypt raise err_o)
  parameter int unsigned KeyLenMax      = 256,   // 128: AES-128 only; 256: AES-128/192/256
  // 128: aes_cipher_core (the round datapath above); 32: aes_cipher_col, one column per cycle
  // (RoundsPerCycle and Pipelined then unused)
  parameter int unsigned Datapath       = 128,
  // S-boxes: 0 tower field, 1 tables (aes_sbox_sel; Datapath 128: the rounds' and the key
  // steps'); Datapath 32 also 2, block RAM ROMs (aes_sbox_rom, datapath and key step). The
  // masked datapath has S-boxes of its own and ignores this
  parameter int unsigned SBoxImpl       = 0,
  // GCM's GHASH bits per cycle (aes_ghash: 1..128, 128 / GhashBits cycles per multiply);
  // 0 builds GCM out (mode GCM then raises err_o)
  parameter int unsigned GhashBits      = 0,
  // Modes built, one bit each: 1 ECB, 2 CBC, 4 CTR (GCM: GhashBits); a mode not built raises
  // err_o as an unknown one. Small parts drop CBC, or CTR, with their IV/counter datapath.
  parameter int unsigned Modes          = 7,
  // CTR: widest counter built (32, 64 or 128 bits); a wider ctr_width_i raises err_o.
  parameter int unsigned CtrBits        = 128,
  // 1: first-order masked datapath (aes_masked_core, docs/masking.md; needs Datapath 128 and
  // RoundsPerCycle 1); 2: the same with its PRNG forced off, for leakage assessment only
  parameter int unsigned Masking        = 0,
  // 1: a register inside the round, two cycles per round (aes_cipher_core; needs Datapath 128,
  // RoundsPerCycle 1, Pipelined 0, Masking 0)
  parameter bit          SplitRound     = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,

  input  logic [1:0]   mode_i,       // aes_pkg::AES_MODE_*
  input  logic         dir_i,        // aes_pkg::AES_DIR_*
  input  logic [1:0]   key_len_i,    // aes_pkg::AES_KEY_*
  input  logic [1:0]   ctr_width_i,  // aes_pkg::AES_CTR_*: incrementing part of the counter

  input  logic [255:0] key_i,        // key byte 0 in bits [255:248]; write-only
  input  logic         key_we_i,
  output logic         key_ready_o,  // key loaded and decryption key derived

  input  logic [127:0] iv_i,
  input  logic         iv_we_i,
  output logic [127:0] iv_o,

  input  logic         clear_i,

  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [127:0] in_data_i,

  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_data_o,

  // GCM (unused with GhashBits = 0)
  input  logic [1:0]   gcm_phase_i,        // aes_pkg::AES_GCM_*: what the offered block is
  input  logic [3:0]   gcm_bytes_i,        // valid bytes of the offered block (0: 16)
  input  logic         gcm_start_i,        // begin a message (mode_i = GCM, engine idle)
  input  logic         gcm_final_i,        // end it once its blocks are in
  input  logic [3:0]   gcm_tag_len_i,      // decryption: tag bytes compared (0: 16)
  input  logic [127:0] gcm_tag_i,          // decryption: the expected tag
  output logic [127:0] gcm_tag_o,          // encryption: the tag (zero on decryption)
  output logic         gcm_tag_valid_o,
  output logic         gcm_tag_mismatch_o, // decryption: sticky until gcm_start_i or clear_i

  // Masking != 0: reseed of the masking PRNG (aes_prng: each pulse shifts the seed into its first
  // lane); ignored otherwise.
  input  logic [127:0] prng_seed_i,
  input  logic         prng_seed_we_i,

  output logic         busy_o,
  output logic         err_o
);
  localparam int unsigned NR_TOP = (KeyLenMax == 128) ? 10 : 14;
  localparam int unsigned CNT_W  = $clog2(NR_TOP + 3);
  localparam bit          GcmOn  = GhashBits != 0;
  localparam int unsigned LenW   = 36;  // GCM byte counts (SP 800-38D: P < 2^36 bytes)
  localparam bit          EcbOn  = Modes[0];
  localparam bit          CbcOn  = Modes[1];
  localparam bit          CtrOn  = Modes[2];
  localparam bit          Ctr64  = CtrBits >= 64;
  localparam bit          Ctr128 = CtrBits >= 128;

  // Normalised configuration of a block: fields that do not apply to the mode are zero.
  typedef struct packed {
    logic [1:0] mode;
    logic       dir;
    logic [1:0] key_len;
    logic [1:0] ctr_width;
  } cfg_t;

  // GCM message state: H, J0 and E_K(J0) are derived in the states between the data phases.
  typedef enum logic [2:0] {
    G_IDLE, G_HKEY, G_IV, G_IVLEN, G_IVWAIT, G_EKJ0, G_DATA, G_LEN
  } gcm_state_e;

  cfg_t             cfg, cfg_q, cfg_d;
  logic [127:0]     iv_q, iv_d, ctr_next;
  logic [1:0]       klen_q, klen_d;
  logic             kloaded_q, kloaded_d;
  logic             err_q, err_d;
  logic [CNT_W-1:0] inflight_q, inflight_d;

  logic             core_in_valid, core_in_ready, core_dec, core_out_valid, core_out_ready;
  logic [127:0]     core_block, core_mask, core_mask_src, core_out_data;
  logic             core_mask_en;
  logic             core_busy, core_key_we;
  logic             busy, out_fire, core_take;
  logic             mode_ok, dec_ok, klen_ok, ctrw_ok, key_ok, same_ok, cfg_ok, chain_ok;
  logic             cbc_enc;

  // GCM
  gcm_state_e       gst_q, gst_d;
  logic [127:0]     h_q, h_d, ekj0_q, ekj0_d, tag_q, tag_d, tag_calc;
  logic             hvalid_q, hvalid_d, gdir_q, gdir_d, ivmsg_q, ivmsg_d, final_q, final_d;
  logic             int_q, int_d, tag_valid_q, tag_valid_d, mismatch_q, mismatch_d;
  logic             iv_closed_q, iv_closed_d, aad_closed_q, aad_closed_d, txt_closed_q, txt_closed_d;
  logic [3:0]       last_bytes_q, last_bytes_d;
  logic [LenW-1:0]  aad_len_q, aad_len_d, txt_len_q, txt_len_d;
  logic [LenW:0]    aad_sum, txt_sum;
  logic             gcm_mode, gcm_msg, gcm_bad, gcm_stall, gcm_ready, gcm_take, gcm_err;
  logic             is_iv, is_aad, is_text, partial, int_issue, int_done, gcm_out, final_go;
  logic             start_ok, in_msg_ok, g_open, g_hash_iv, g_int;
  logic [127:0]     in_masked;
  logic             gh_valid, gh_ready, gh_busy, gh_init;
  logic [127:0]     gh_data, gh_y;

  /////////////////////////////
  // Configuration checking  //
  /////////////////////////////

  assign gcm_mode = GcmOn & (mode_i == aes_pkg::AES_MODE_GCM);

  always_comb begin
    cfg           = '0;
    cfg.mode      = mode_i;
    // CTR and GCM run the cipher forward whatever the direction.
    cfg.dir       = ((mode_i == aes_pkg::AES_MODE_CTR) | gcm_mode) ? aes_pkg::AES_DIR_ENC : dir_i;
    cfg.key_len   = key_len_i;
    cfg.ctr_width = (mode_i == aes_pkg::AES_MODE_CTR) ? ctr_width_i : aes_pkg::AES_CTR_32;
  end

  // GCM states that wait for blocks (not busy), that take IV blocks, that use the cipher.
  assign g_open    = (gst_q == G_IDLE) | (gst_q == G_IV) | (gst_q == G_DATA);
  assign g_hash_iv = (gst_q == G_HKEY) | (gst_q == G_IV);
  assign g_int     = (gst_q == G_HKEY) | (gst_q == G_EKJ0);

  assign busy    = (inflight_q != '0) | core_busy | gh_busy | final_q | ~g_open;
  assign mode_ok = (EcbOn & (mode_i == aes_pkg::AES_MODE_ECB)) |
                   (CbcOn & (mode_i == aes_pkg::AES_MODE_CBC)) |
                   (CtrOn & (mode_i == aes_pkg::AES_MODE_CTR)) | gcm_mode;
  assign dec_ok  = DecEnable | (cfg.dir == aes_pkg::AES_DIR_ENC);
  assign klen_ok = (key_len_i == aes_pkg::AES_KEY_128) |
                   ((KeyLenMax == 256) &
                    ((key_len_i == aes_pkg::AES_KEY_192) | (key_len_i == aes_pkg::AES_KEY_256)));
  assign ctrw_ok = (cfg.ctr_width == aes_pkg::AES_CTR_32) |
                   (Ctr64 & (cfg.ctr_width == aes_pkg::AES_CTR_64)) |
                   (Ctr128 & (cfg.ctr_width == aes_pkg::AES_CTR_128));
  assign key_ok  = kloaded_q & (key_len_i == klen_q);
  assign same_ok = (inflight_q == '0) | (cfg == cfg_q);
  assign cfg_ok  = mode_ok & dec_ok & klen_ok & ctrw_ok & key_ok & same_ok;

  // CBC encryption chains on the previous ciphertext: one block in flight at a time, the next one
  // taken in the cycle the previous result leaves.
  assign cbc_enc  = CbcOn & (cfg.mode == aes_pkg::AES_MODE_CBC) & (cfg.dir == aes_pkg::AES_DIR_ENC);
  assign chain_ok = ~cbc_enc | (inflight_q == '0) |
                    ((inflight_q == CNT_W'(1)) & out_fire);

  ///////////////////////////
  // GCM message checking  //
  ///////////////////////////

  assign is_iv   = gcm_phase_i == aes_pkg::AES_GCM_IV;
  assign is_aad  = gcm_phase_i == aes_pkg::AES_GCM_AAD;
  assign is_text = gcm_phase_i == aes_pkg::AES_GCM_TEXT;
  assign partial = gcm_bytes_i != 4'd0;
  assign gcm_msg = gst_q != G_IDLE;

  // A GCM block that can never be taken: outside a message, out of phase order, after the
  // partial block of its phase, after gcm_final_i, or in another direction than the message's.
  always_comb begin
    gcm_bad = ~gcm_msg | final_q | (dir_i != gdir_q) | ~(is_iv | is_aad | is_text);
    if (is_iv) begin
      gcm_bad = gcm_bad | ~ivmsg_q | iv_closed_q | ~g_hash_iv;
    end
    if (is_aad) begin
      gcm_bad = gcm_bad | aad_closed_q;
    end
    if (is_text) begin
      gcm_bad = gcm_bad | txt_closed_q;
    end
  end

  // A GCM block that must wait: H or J0 still being derived, the GHASH busy, a partial TEXT block
  // behind full ones (its output mask is the last one taken), or the cipher not ready.
  always_comb begin
    gcm_stall = ~((gst_q == G_IV) | (gst_q == G_DATA)) | ((gst_q == G_IV) & ~is_iv);
    if (is_text) begin
      gcm_stall = gcm_stall | ~core_in_ready | (partial & (inflight_q != '0)) |
                  ((gdir_q == aes_pkg::AES_DIR_DEC) & ~gh_ready);
    end else begin
      gcm_stall = gcm_stall | ~gh_ready;
    end
  end

  assign gcm_ready = gcm_mode & key_ok & ~gcm_bad & ~gcm_stall & ~err_q;
  assign gcm_take  = in_valid_i & gcm_ready;
  assign in_masked = in_data_i & aes_pkg::lead_bytes(gcm_bytes_i);

  // Internal cipher operations (H, E_K(J0)) run while nothing else is in the core.
  assign int_issue = GcmOn & ~int_q & g_int;
  assign int_done  = int_q & core_out_valid;
  // Results leaving the core in a GCM message are TEXT blocks; encryption hashes them on the
  // way out.
  assign gcm_out   = GcmOn & (gst_q == G_DATA);
  assign final_go  = (gst_q == G_DATA) & final_q & (inflight_q == '0) & ~core_busy & gh_ready;
  assign start_ok  = gcm_mode & key_ok & ~busy & g_open;
  assign in_msg_ok = gcm_msg & (gst_q != G_LEN) & ~final_q;

  assign aad_sum = {1'b0, aad_len_q} + (LenW + 1)'(partial ? {1'b0, gcm_bytes_i} : 5'd16);
  assign txt_sum = {1'b0, txt_len_q} + (LenW + 1)'(partial ? {1'b0, gcm_bytes_i} : 5'd16);

  always_comb begin
    gh_valid = 1'b0;
    gh_data  = in_masked;
    unique case (gst_q)
      G_IV:    gh_valid = gcm_take;
      G_IVLEN: begin
        gh_valid = 1'b1;
        gh_data  = {64'd0, 25'd0, aad_len_q, 3'd0};
      end
      G_DATA: begin
        if (final_go) begin
          gh_valid = 1'b1;
          gh_data  = {25'd0, aad_len_q, 3'd0, 25'd0, txt_len_q, 3'd0};
        end else if (gdir_q == aes_pkg::AES_DIR_ENC) begin
          gh_valid = (gcm_take & is_aad) | out_fire;
          gh_data  = out_fire ? (core_out_data & aes_pkg::lead_bytes(last_bytes_q)) : in_masked;
        end else begin
          gh_valid = gcm_take;
        end
      end
      default: ;
    endcase
  end

  if (GcmOn) begin : gen_ghash
    aes_ghash #(
      .BitsPerCycle(GhashBits)
    ) u_ghash (
      .clk_i,
      .rst_ni,
      .clear_i,
      .h_i       (h_q),
      .init_i    (gh_init),
      .in_valid_i(gh_valid),
      .in_ready_o(gh_ready),
      .in_data_i (gh_data),
      .busy_o    (gh_busy),
      .y_o       (gh_y)
    );
  end else begin : gen_no_ghash
    assign gh_ready = 1'b0;
    assign gh_busy  = 1'b0;
    assign gh_y     = '0;
    logic unused_gh;
    assign unused_gh = ^{gh_valid, gh_data, gh_init};
  end

  /////////////////////
  // Stream control  //
  /////////////////////

  always_comb begin
    if (gcm_mode) begin
      in_ready_o    = gcm_ready;
      core_in_valid = int_issue | (gcm_take & is_text);
    end else begin
      in_ready_o    = core_in_ready & cfg_ok & chain_ok & ~err_q & ~gcm_msg;
      core_in_valid = int_issue | (in_valid_i & cfg_ok & chain_ok & ~err_q & ~gcm_msg);
    end
  end
  assign core_take = core_in_valid & core_in_ready & ~int_issue;

  // An encrypted TEXT block leaves only when the GHASH can take its ciphertext.
  assign out_valid_o    = core_out_valid & ~err_q & ~int_q &
                          (~gcm_out | (gdir_q == aes_pkg::AES_DIR_DEC) | gh_ready);
  assign core_out_ready = int_q | (out_ready_i & ~err_q &
                          (~gcm_out | (gdir_q == aes_pkg::AES_DIR_DEC) | gh_ready));
  assign out_fire       = out_valid_o & out_ready_i;
  assign out_data_o     = gcm_out ? (core_out_data & aes_pkg::lead_bytes(last_bytes_q))
                                  : core_out_data;

  assign core_key_we = key_we_i & ~busy & klen_ok & ~err_q & ~gcm_msg;

  ////////////////////////
  // Mode datapath      //
  ////////////////////////

  // Widths not built fall to 32 bits; a block asking for one is refused (ctrw_ok).
  always_comb begin
    if (Ctr128 && (ctr_width_i == aes_pkg::AES_CTR_128)) begin
      ctr_next = iv_q + 128'd1;
    end else if (Ctr64 && (ctr_width_i == aes_pkg::AES_CTR_64)) begin
      ctr_next = {iv_q[127:64], iv_q[63:0] + 64'd1};
    end else begin
      ctr_next = {iv_q[127:32], iv_q[31:0] + 32'd1};
    end
  end

  // The mask is chosen here and enabled apart, so the compact core can hold it ungated and gate
  // only the 32-bit column it adds in the last round.
  always_comb begin
    core_block    = in_data_i;
    core_mask_src = in_data_i;
    core_mask_en  = 1'b0;
    core_dec      = cfg.dir;
    if (int_issue) begin
      // H = E_K(0^128) in G_HKEY; E_K(J0) in G_EKJ0, where iv_q holds J0.
      core_block = (gst_q == G_HKEY) ? 128'd0 : iv_q;
      core_dec   = aes_pkg::AES_DIR_ENC;
    end else begin
      // Modes not built never reach the core (mode_ok), so their paths are left out.
      if (CbcOn && (cfg.mode == aes_pkg::AES_MODE_CBC)) begin
        if (cfg.dir == aes_pkg::AES_DIR_DEC) begin
          core_mask_src = iv_q;
          core_mask_en  = 1'b1;
        end else begin
          core_block = in_data_i ^ (out_fire ? core_out_data : iv_q);
        end
      end else if ((CtrOn && (cfg.mode == aes_pkg::AES_MODE_CTR)) ||
                   (GcmOn && (cfg.mode == aes_pkg::AES_MODE_GCM))) begin
        core_block   = iv_q;
        core_mask_en = 1'b1;
      end
    end
  end
  assign core_mask = core_mask_en ? core_mask_src : '0;

  always_comb begin
    iv_d       = iv_q;
    cfg_d      = cfg_q;
    klen_d     = klen_q;
    kloaded_d  = kloaded_q;
    inflight_d = inflight_q;
    err_d      = err_q;

    if (iv_we_i & ~busy & ~err_q & ~gcm_msg) begin
      iv_d = iv_i;
    end
    if (core_key_we) begin
      klen_d    = key_len_i;
      kloaded_d = 1'b1;
    end
    if (CbcOn & out_fire & (cfg_q.mode == aes_pkg::AES_MODE_CBC) &
        (cfg_q.dir == aes_pkg::AES_DIR_ENC)) begin
      iv_d = core_out_data;
    end
    if (core_take) begin
      cfg_d = cfg;
      if (CtrOn & (cfg.mode == aes_pkg::AES_MODE_CTR)) begin
        iv_d = ctr_next;
      end else if (CbcOn & (cfg.mode == aes_pkg::AES_MODE_CBC) &
                   (cfg.dir == aes_pkg::AES_DIR_DEC)) begin
        iv_d = in_data_i;
      end else if (GcmOn & (cfg.mode == aes_pkg::AES_MODE_GCM)) begin
        iv_d = {iv_q[127:32], iv_q[31:0] + 32'd1};  // inc32
      end
    end
    unique case ({core_take, out_fire})
      2'b10:   inflight_d = inflight_q + CNT_W'(1);
      2'b01:   inflight_d = inflight_q - CNT_W'(1);
      default: ;
    endcase

    // GCM message sequence.
    gst_d        = gst_q;
    h_d          = h_q;
    hvalid_d     = hvalid_q & ~core_key_we;
    ekj0_d       = ekj0_q;
    gdir_d       = gdir_q;
    ivmsg_d      = ivmsg_q;
    final_d      = final_q;
    int_d        = int_q;
    tag_d        = tag_q;
    tag_valid_d  = tag_valid_q;
    mismatch_d   = mismatch_q;
    iv_closed_d  = iv_closed_q;
    aad_closed_d = aad_closed_q;
    txt_closed_d = txt_closed_q;
    last_bytes_d = last_bytes_q;
    aad_len_d    = aad_len_q;
    txt_len_d    = txt_len_q;
    gh_init      = 1'b0;
    gcm_err      = 1'b0;
    tag_calc     = gh_y ^ ekj0_q;

    if (int_issue & core_in_ready) begin
      int_d = 1'b1;
    end
    if (int_done) begin
      int_d = 1'b0;
    end
    if (GcmOn & gcm_final_i) begin
      final_d = in_msg_ok;
      gcm_err = ~in_msg_ok;
    end
    if (GcmOn & gcm_start_i) begin
      gcm_err = gcm_err | ~start_ok;
    end

    unique case (gst_q)
      G_HKEY: begin
        if (int_done) begin
          h_d      = core_out_data;
          hvalid_d = 1'b1;
          gst_d    = ivmsg_q ? G_IV : G_EKJ0;
        end
      end
      G_IV: begin
        if (gcm_take) begin
          aad_len_d   = aad_sum[LenW-1:0];
          iv_closed_d = partial;
          gcm_err     = gcm_err | aad_sum[LenW];
        end
        if (final_q | (gcm_mode & in_valid_i & ~is_iv & ~gcm_bad)) begin
          gst_d = G_IVLEN;
        end
      end
      G_IVLEN: begin
        if (gh_ready) begin
          gst_d = G_IVWAIT;
        end
      end
      G_IVWAIT: begin
        if (~gh_busy) begin
          iv_d  = gh_y;  // J0
          gst_d = G_EKJ0;
        end
      end
      G_EKJ0: begin
        if (int_done) begin
          ekj0_d    = core_out_data;
          iv_d      = {iv_q[127:32], iv_q[31:0] + 32'd1};  // inc32(J0)
          aad_len_d = '0;
          gh_init   = 1'b1;
          gst_d     = G_DATA;
        end
      end
      G_DATA: begin
        if (gcm_take & is_aad) begin
          aad_len_d    = aad_sum[LenW-1:0];
          aad_closed_d = partial;
          gcm_err      = gcm_err | aad_sum[LenW];
        end
        if (gcm_take & is_text) begin
          txt_len_d    = txt_sum[LenW-1:0];
          txt_closed_d = partial;
          aad_closed_d = 1'b1;
          last_bytes_d = gcm_bytes_i;
          gcm_err      = gcm_err | txt_sum[LenW];
        end
        if (final_go) begin
          gst_d = G_LEN;
        end
      end
      G_LEN: begin
        if (~gh_busy) begin
          // Constant time: every compared byte goes through one XOR and one OR reduction.
          mismatch_d  = (gdir_q == aes_pkg::AES_DIR_DEC) &
                        (|((tag_calc ^ gcm_tag_i) & aes_pkg::lead_bytes(gcm_tag_len_i)));
          tag_d       = (gdir_q == aes_pkg::AES_DIR_ENC) ? tag_calc : '0;
          tag_valid_d = 1'b1;
          ekj0_d      = '0;
          final_d     = 1'b0;
          gst_d       = G_IDLE;
        end
      end
      default: ;
    endcase

    // A message starts from its IV: J0 = IV || 0^31 || 1, or hashed from IV blocks.
    if (GcmOn & gcm_start_i & start_ok) begin
      ivmsg_d      = is_iv;
      gdir_d       = dir_i;
      gst_d        = hvalid_q ? (is_iv ? G_IV : G_EKJ0) : G_HKEY;
      iv_d         = is_iv ? '0 : {iv_q[127:32], 32'd1};
      ekj0_d       = '0;
      final_d      = 1'b0;
      tag_d        = '0;
      tag_valid_d  = 1'b0;
      mismatch_d   = 1'b0;
      iv_closed_d  = 1'b0;
      aad_closed_d = 1'b0;
      txt_closed_d = 1'b0;
      last_bytes_d = '0;
      aad_len_d    = '0;
      txt_len_d    = '0;
      gh_init      = 1'b1;
    end

    if ((in_valid_i & ~cfg_ok) | (key_we_i & (busy | ~klen_ok | gcm_msg)) |
        (iv_we_i & (busy | gcm_msg)) | (GcmOn & gcm_err) |
        (gcm_mode & in_valid_i & gcm_bad) | (in_valid_i & ~gcm_mode & gcm_msg)) begin
      err_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iv_q       <= '0;
      cfg_q      <= '0;
      klen_q     <= aes_pkg::AES_KEY_128;
      kloaded_q  <= 1'b0;
      inflight_q <= '0;
      err_q      <= 1'b0;
    end else if (clear_i) begin
      iv_q       <= '0;
      cfg_q      <= '0;
      klen_q     <= aes_pkg::AES_KEY_128;
      kloaded_q  <= 1'b0;
      inflight_q <= '0;
      err_q      <= 1'b0;
    end else begin
      iv_q       <= iv_d;
      cfg_q      <= cfg_d;
      klen_q     <= klen_d;
      kloaded_q  <= kloaded_d;
      inflight_q <= inflight_d;
      err_q      <= err_d;
    end
  end

  // GCM registers; constant zero (and removed by synthesis) when GCM is not built.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gst_q        <= G_IDLE;
      h_q          <= '0;
      hvalid_q     <= 1'b0;
      ekj0_q       <= '0;
      gdir_q       <= 1'b0;
      ivmsg_q      <= 1'b0;
      final_q      <= 1'b0;
      int_q        <= 1'b0;
      tag_q        <= '0;
      tag_valid_q  <= 1'b0;
      mismatch_q   <= 1'b0;
      iv_closed_q  <= 1'b0;
      aad_closed_q <= 1'b0;
      txt_closed_q <= 1'b0;
      last_bytes_q <= '0;
      aad_len_q    <= '0;
      txt_len_q    <= '0;
    end else if (clear_i || !GcmOn) begin
      gst_q        <= G_IDLE;
      h_q          <= '0;
      hvalid_q     <= 1'b0;
      ekj0_q       <= '0;
      gdir_q       <= 1'b0;
      ivmsg_q      <= 1'b0;
      final_q      <= 1'b0;
      int_q        <= 1'b0;
      tag_q        <= '0;
      tag_valid_q  <= 1'b0;
      mismatch_q   <= 1'b0;
      iv_closed_q  <= 1'b0;
      aad_closed_q <= 1'b0;
      txt_closed_q <= 1'b0;
      last_bytes_q <= '0;
      aad_len_q    <= '0;
      txt_len_q    <= '0;
    end else begin
      gst_q        <= gst_d;
      h_q          <= h_d;
      hvalid_q     <= hvalid_d;
      ekj0_q       <= ekj0_d;
      gdir_q       <= gdir_d;
      ivmsg_q      <= ivmsg_d;
      final_q      <= final_d;
      int_q        <= int_d;
      tag_q        <= tag_d;
      tag_valid_q  <= tag_valid_d;
      mismatch_q   <= mismatch_d;
      iv_closed_q  <= iv_closed_d;
      aad_closed_q <= aad_closed_d;
      txt_closed_q <= txt_closed_d;
      last_bytes_q <= last_bytes_d;
      aad_len_q    <= aad_len_d;
      txt_len_q    <= txt_len_d;
    end
  end

  assign iv_o               = iv_q;
  assign busy_o             = busy;
  assign err_o              = err_q;
  assign gcm_tag_o          = tag_q;
  assign gcm_tag_valid_o    = tag_valid_q;
  assign gcm_tag_mismatch_o = mismatch_q;

  if (Datapath == 32) begin : gen_col
    aes_cipher_col #(
      .DecEnable(DecEnable),
      .KeyLenMax(KeyLenMax),
      .SBoxImpl (SBoxImpl)
    ) u_cipher_core (
      .clk_i,
      .rst_ni,
      .clear_i,
      .key_i,
      .key_len_i,
      .key_we_i   (core_key_we),
      .key_ready_o,
      .in_valid_i (core_in_valid),
      .in_ready_o (core_in_ready),
      .in_dec_i   (core_dec),
      .in_block_i (core_block),
      .in_mask_i  (core_mask_src),
      .in_mask_en_i(core_mask_en),
      .out_valid_o(core_out_valid),
      .out_ready_i(core_out_ready),
      .out_data_o (core_out_data),
      .busy_o     (core_busy)
    );
    logic unused_core_mask;
    assign unused_core_mask = ^{core_mask, prng_seed_i, prng_seed_we_i};
  end else if (Masking != 0) begin : gen_masked
    aes_masked_core #(
      .DecEnable(DecEnable),
      .KeyLenMax(KeyLenMax),
      .PrngOff  (Masking == 2)
    ) u_cipher_core (
      .clk_i,
      .rst_ni,
      .clear_i,
      .key_i,
      .key_len_i,
      .key_we_i      (core_key_we),
      .key_ready_o,
      .in_valid_i    (core_in_valid),
      .in_ready_o    (core_in_ready),
      .in_dec_i      (core_dec),
      .in_block_i    (core_block),
      .in_mask_i     (core_mask),
      .out_valid_o   (core_out_valid),
      .out_ready_i   (core_out_ready),
      .out_data_o    (core_out_data),
      .busy_o        (core_busy),
      .prng_seed_i,
      .prng_seed_we_i
    );
  end else begin : gen_round
    aes_cipher_core #(
      .RoundsPerCycle(RoundsPerCycle),
      .Pipelined     (Pipelined),
      .DecEnable     (DecEnable),
      .KeyLenMax     (KeyLenMax),
      .SplitRound    (SplitRound),
      .SBoxImpl      (SBoxImpl)
    ) u_cipher_core (
      .clk_i,
      .rst_ni,
      .clear_i,
      .key_i,
      .key_len_i,
      .key_we_i   (core_key_we),
      .key_ready_o,
      .in_valid_i (core_in_valid),
      .in_ready_o (core_in_ready),
      .in_dec_i   (core_dec),
      .in_block_i (core_block),
      .in_mask_i  (core_mask),
      .out_valid_o(core_out_valid),
      .out_ready_i(core_out_ready),
      .out_data_o (core_out_data),
      .busy_o     (core_busy)
    );
    logic unused_prng_seed;
    assign unused_prng_seed = ^{prng_seed_i, prng_seed_we_i};
  end

  ////////////////
  // Assertions //
  ////////////////

`ifdef ASSERT_ON
  // Parameters name a supported variant.
  if (!(RoundsPerCycle == 0 || RoundsPerCycle == 1 || RoundsPerCycle == 2 ||
        RoundsPerCycle == 3 || RoundsPerCycle == 5) || (Pipelined && RoundsPerCycle != 0) ||
      !(KeyLenMax == 128 || KeyLenMax == 256) || !(Datapath == 128 || Datapath == 32) ||
      SBoxImpl > 2 || (SBoxImpl == 2 && Datapath != 32) ||
      (GhashBits > 128) || ((GhashBits & (GhashBits - 1)) != 0) ||
      Modes == 0 || Modes > 7 || !(CtrBits == 32 || CtrBits == 64 || CtrBits == 128) ||
      Masking > 2 || (Masking != 0 && (Datapath != 128 || RoundsPerCycle != 1 || Pipelined)) ||
      (SplitRound && (Datapath != 128 || RoundsPerCycle != 1 || Pipelined || Masking != 0)))
  begin : gen_param_check
    $error("aes_engine: unsupported parameter set");
  end
  // Written without rst_ni (Verilator flags a reset used both asynchronously and synchronously);
  // each property also holds while the registers are held in reset.
  // Nothing leaves the engine once it has flagged an error.
  NoOutputOnErr_A: assert property (@(posedge clk_i) err_o |-> !out_valid_o && !in_ready_o);
  // A block offered with a configuration the engine cannot run raises the error flag.
  BadCfgErr_A: assert property (@(posedge clk_i) in_valid_i && !cfg_ok |-> err_d);
  // Clear empties the engine in one cycle.
  ClearBounded_A: assert property (@(posedge clk_i)
      clear_i |=> !busy_o && !err_o && !key_ready_o && iv_o == '0);
  // The in-flight count never wraps.
  InflightBound_A: assert property (@(posedge clk_i) inflight_q <= CNT_W'(NR_TOP + 2));
  // H and E_K(J0) use the cipher only while no block of the stream is in it.
  GcmIntAlone_A: assert property (@(posedge clk_i) int_issue |-> inflight_q == '0);
  // Only a decryption can report a tag mismatch, and only an encryption shows its tag.
  GcmMismatchDec_A: assert property (@(posedge clk_i)
      gcm_tag_mismatch_o |-> gdir_q == aes_pkg::AES_DIR_DEC && gcm_tag_o == '0);
  // Without GCM built the GCM state never leaves idle.
  GcmOff_A: assert property (@(posedge clk_i) !GcmOn |-> gst_q == G_IDLE && !gcm_tag_valid_o);
`endif

endmodule

`default_nettype wire
