// SPDX-License-Identifier: Apache-2.0
// XIP flash controller, bus-neutral: register file, key unwrap, statistics and xip_core.
`default_nettype none

// Two request ports:
//   win_*  the flash window: a read request of one word (win_addr_i, word address in the flash)
//          is held until win_ack_o, which comes with the word in win_rdata_o (xip_core).
//   reg_*  the register file generated from data/xip.rdl: peakrdl-regblock's passthrough CPU
//          interface (ip/xip/README.md), acknowledged in the request cycle.
// otp_kek_i is the key-encryption key from OTP: it only ever reaches the unwrap engine.
// otp_integ_req_i and otp_min_version_i are the OTP policy fuses (POLICY, MIN_VERSION).
//
// A context is armed only by an unwrap: the blob is the RFC 3394 wrap of the context's whole
// description (keys, nonce, bounds, flags, version, tag base and its slot number), and the
// registers of the context are loaded from what the unwrap returns, never from software. While
// the context holds a key its registers ignore writes, so what decrypts and checks a region is
// exactly what the blob's author wrote (docs/xip.md, "The key table").
module xip_periph #(
  parameter int unsigned FlashBytes       = 16 * 1024 * 1024,  // power of two, at most 16 MB
  parameter int unsigned PrefetchWords    = 16,                // 16 words = 2 x 32-byte lines
  parameter int unsigned KsRoundsPerCycle = 1,                 // keystream AES core
  parameter bit          Integrity        = 1'b1,              // per-line AES-CMAC checks
  parameter int unsigned VerifiedLines    = 4,                 // verified-line buffer (0: none)
  parameter int unsigned TagRun           = 2,                 // SEPARATE: tags per run of a linear stream
  parameter int unsigned SBoxImpl         = 0                  // AES S-boxes: 0 tower field, 1 tables
) (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,

  input  wire logic                                win_req_i,
  input  wire logic [$clog2(FlashBytes / 4)-1:0]   win_addr_i,
  output logic                                     win_ack_o,
  output logic                                     win_err_o,   // line failed its integrity check
  output logic      [31:0]                         win_rdata_o,

  input  wire logic         reg_req_i,
  input  wire logic         reg_req_is_wr_i,
  input  wire logic [11:0]  reg_addr_i,
  input  wire logic [31:0]  reg_wr_data_i,
  input  wire logic [31:0]  reg_wr_biten_i,
  output logic              reg_req_stall_wr_o,
  output logic              reg_req_stall_rd_o,
  output logic              reg_rd_ack_o,
  output logic              reg_rd_err_o,
  output logic      [31:0]  reg_rd_data_o,
  output logic              reg_wr_ack_o,
  output logic              reg_wr_err_o,

  /* verilator tracing_off */
  input  wire logic [127:0] otp_kek_i,
  /* verilator tracing_on */
  input  wire logic         otp_integ_req_i,    // integrity required (fuse)
  input  wire logic [31:0]  otp_min_version_i,  // anti-rollback minimum version (fuse)

  output logic              flash_sck_o,
  output logic              flash_cs_no,
  output logic      [3:0]   flash_io_o,
  output logic      [3:0]   flash_io_oe_o,
  input  wire logic [3:0]   flash_io_i,

  output logic              irq_o,         // INTEG_STATUS.FAIL & INTEG_IE.FAIL

  output logic              idle_o         // no register would change at this edge
);

  // Register block.
  logic [7:0]   cfg_div;
  logic [3:0]   cfg_dummy;
  logic [1:0]   cfg_cmd;
  logic         cfg_cont;
  logic [3:0]   cfg_mod;
  logic         ctrl_flush, ctrl_clr_stats;
  logic [575:0] blob_le;
  logic [1:0]   unwrap_ctx;
  logic         unwrap_go, glock;
  logic [3:0]   ctx_en, ctx_lock, ctx_integ, ctx_layout;
  logic [127:0] ctx_version;
  logic [83:0]  ctx_tagbase;
  logic [55:0]  ctx_start;
  logic [59:0]  ctx_end;
  logic [255:0] nonce_le, nonce;
  logic [27:0]  ctx_mod;
  logic [3:0]   ctx_ro, arm_ctx;

  // Core.
  logic         core_busy, core_cont, stat_hit, stat_wait, stat_miss;
  logic [3:0]   key_valid, ctx_active, mac_valid, bad_cfg;
  logic         integ_fail;
  logic [1:0]   integ_ctx, fail_ctx_q;
  logic [23:0]  integ_addr, fail_addr_q;
  logic [31:0]  hits_q, waits_q, misses_q;

  // Unwrap of a context description (docs/xip.md): P1..P8, byte 0 of P1 on top.
  logic         kw_start, kw_busy, kw_check, kw_done, kw_ok;
  /* verilator tracing_off */
  logic [511:0] kw_data;
  logic [127:0] d_key, d_mac;
  /* verilator tracing_on */
  logic [63:0]  d_nonce;
  logic [31:0]  d_start, d_end, d_flags, d_version, d_tagbase, d_slot;
  logic         d_slot_ok, d_version_ok, d_policy_ok, arm;
  logic         slot_ok_q, version_ok_q, arm_ok_q;  // the checks, taken in the unwrap's check cycle
  logic [575:0] blob;
  logic [1:0]   kw_ctx_q;
  logic         lock_err_set;
  logic         flush, flush_q;
  // Integrity failures of the read port, recorded a cycle after the read's ERR.
  logic         fail_q;
  logic [1:0]   fail_ctx_in_q;
  logic [23:0]  fail_addr_in_q;

  // Anti-rollback minimum: the OTP value, raised (never lowered) by MIN_VERSION_RAISE.
  logic [31:0]  min_q, min_d;

  // Simulation clock gating.
  logic         kw_idle, core_idle;

  xip_reg_pkg::xip__in_t  hwif_in;
  xip_reg_pkg::xip__out_t hwif_out;

  xip_reg u_reg (
    .clk                  (clk_i),
    .arst_n               (rst_ni),
    .s_cpuif_req          (reg_req_i),
    .s_cpuif_req_is_wr    (reg_req_is_wr_i),
    .s_cpuif_addr         (reg_addr_i),
    .s_cpuif_wr_data      (reg_wr_data_i),
    .s_cpuif_wr_biten     (reg_wr_biten_i),
    .s_cpuif_req_stall_wr (reg_req_stall_wr_o),
    .s_cpuif_req_stall_rd (reg_req_stall_rd_o),
    .s_cpuif_rd_ack       (reg_rd_ack_o),
    .s_cpuif_rd_err       (reg_rd_err_o),
    .s_cpuif_rd_data      (reg_rd_data_o),
    .s_cpuif_wr_ack       (reg_wr_ack_o),
    .s_cpuif_wr_err       (reg_wr_err_o),
    .hwif_in              (hwif_in),
    .hwif_out             (hwif_out)
  );

  assign cfg_div        = hwif_out.CFG.div.value;
  assign cfg_dummy      = hwif_out.CFG.dummy.value;
  assign cfg_cmd        = hwif_out.CFG.cmd.value;
  assign cfg_cont       = hwif_out.CFG.cont.value;
  assign cfg_mod        = {hwif_out.CFG.cont.swmod, hwif_out.CFG.cmd.swmod, hwif_out.CFG.dummy.swmod,
                           hwif_out.CFG.div.swmod};
  assign ctrl_flush     = hwif_out.CTRL.flush.value;
  assign ctrl_clr_stats = hwif_out.CTRL.clr_stats.value;
  assign unwrap_ctx     = hwif_out.UNWRAP.ctx.value;
  assign unwrap_go      = hwif_out.UNWRAP.go.value;
  assign glock          = hwif_out.LOCK.lock.value;

  assign hwif_in.STATUS.busy.next                = core_busy;
  assign hwif_in.STATUS.cont.next                = core_cont;
  assign hwif_in.HITS.count.next                 = hits_q;
  assign hwif_in.WAITS.count.next                = waits_q;
  assign hwif_in.MISSES.count.next               = misses_q;
  assign hwif_in.OTFAD_STATUS.busy.next          = kw_busy | unwrap_go;
  assign hwif_in.OTFAD_STATUS.unwrap_err.hwset   = kw_done & ~(kw_ok & slot_ok_q);
  assign hwif_in.OTFAD_STATUS.lock_err.hwset     = lock_err_set;
  assign hwif_in.OTFAD_STATUS.version_err.hwset  = kw_done & kw_ok & slot_ok_q & ~version_ok_q;
  assign hwif_in.OTFAD_STATUS.policy_err.hwset   = kw_done & kw_ok & slot_ok_q & version_ok_q & ~arm_ok_q;
  assign hwif_in.POLICY.integ_req.next           = otp_integ_req_i;
  assign hwif_in.MIN_VERSION.data.next           = min_d;  // a raise reads back at once
  assign hwif_in.OTFAD_STATUS.key_valid.next     = key_valid;
  assign hwif_in.OTFAD_STATUS.active.next        = ctx_active;
  assign hwif_in.OTFAD_STATUS.mac_valid.next     = mac_valid;

  // Integrity failures: the first one's context and line are held until FAIL is cleared.
  // The recorded line failing again (re-read, other beats of a refill) is not a new failure.
  // A failure reaches INTEG_STATUS (and irq_o) one cycle after the read's ERR: the read port's
  // hit/error decision then ends in a register instead of running on into the register file.
  logic integ_new;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fail_q         <= 1'b0;
      fail_ctx_in_q  <= '0;
      fail_addr_in_q <= '0;
    end else begin
      fail_q <= integ_fail;
      if (integ_fail) begin
        fail_ctx_in_q  <= integ_ctx;
        fail_addr_in_q <= integ_addr;
      end
    end
  end

  assign integ_new = fail_q & ~(hwif_out.INTEG_STATUS.fail.value & (fail_addr_in_q == fail_addr_q)
                                & (fail_ctx_in_q == fail_ctx_q));
  assign hwif_in.INTEG_STATUS.fail.hwset     = integ_new;
  assign hwif_in.INTEG_STATUS.overflow.hwset = integ_new & hwif_out.INTEG_STATUS.fail.value;
  assign hwif_in.INTEG_STATUS.ctx.next       = fail_ctx_q;
  assign hwif_in.INTEG_STATUS.bad_cfg.next   = bad_cfg;
  assign hwif_in.INTEG_ADDR.addr.next        = fail_addr_q;
  periph_irq #(.Width(1)) u_irq (
    .status_i (hwif_out.INTEG_STATUS.fail.value),
    .enable_i (hwif_out.INTEG_IE.fail.value),
    .irq_o    (irq_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fail_ctx_q  <= '0;
      fail_addr_q <= '0;
    end else if (integ_new && !hwif_out.INTEG_STATUS.fail.value) begin
      fail_ctx_q  <= fail_ctx_in_q;
      fail_addr_q <= fail_addr_in_q;
    end
  end

  for (genvar i = 0; i < 18; i++) begin : gen_blob_regs
    assign blob_le[32 * i +: 32] = hwif_out.KEYBLOB[i].data.value;
  end
  // Context c: CTRL (en, integ, layout), START, END, NONCE[0], NONCE[1], VERSION, TAGBASE
  // modified bits at ctx_mod[7c +: 7].
  for (genvar c = 0; c < 4; c++) begin : gen_ctx_regs
    assign ctx_en[c]                   = hwif_out.CTX[c].CTRL.en.value;
    assign ctx_lock[c]                 = hwif_out.CTX[c].CTRL.lock.value;
    assign ctx_integ[c]                = hwif_out.CTX[c].CTRL.integ.value;
    assign ctx_layout[c]               = hwif_out.CTX[c].CTRL.layout.value;
    assign ctx_version[32 * c +: 32]   = hwif_out.CTX[c].VERSION.data.value;
    assign ctx_tagbase[21 * c +: 21]   = hwif_out.CTX[c].TAGBASE.addr.value;
    assign ctx_start[14 * c +: 14]     = hwif_out.CTX[c].START.addr.value;
    assign ctx_end[15 * c +: 15]       = hwif_out.CTX[c].END.addr.value;
    assign nonce_le[64 * c +: 32]      = hwif_out.CTX[c].NONCE[0].data.value;
    assign nonce_le[64 * c + 32 +: 32] = hwif_out.CTX[c].NONCE[1].data.value;
    assign ctx_mod[7 * c +: 7]         = {hwif_out.CTX[c].TAGBASE.addr.swmod,
                                          hwif_out.CTX[c].VERSION.data.swmod,
                                          hwif_out.CTX[c].NONCE[1].data.swmod,
                                          hwif_out.CTX[c].NONCE[0].data.swmod,
                                          hwif_out.CTX[c].END.addr.swmod,
                                          hwif_out.CTX[c].START.addr.swmod,
                                          hwif_out.CTX[c].CTRL.en.swmod
                                          | hwif_out.CTX[c].CTRL.integ.swmod
                                          | hwif_out.CTX[c].CTRL.layout.swmod};
    // Software may set up a context only while it holds no key and nothing is locked.
    assign ctx_ro[c]                            = ctx_lock[c] | glock | key_valid[c];
    assign hwif_in.CTX[c].CTRL.en.swwel         = ctx_ro[c];
    assign hwif_in.CTX[c].CTRL.integ.swwel      = ctx_ro[c];
    assign hwif_in.CTX[c].CTRL.layout.swwel     = ctx_ro[c];
    assign hwif_in.CTX[c].VERSION.data.swwel    = ctx_ro[c];
    assign hwif_in.CTX[c].TAGBASE.addr.swwel    = ctx_ro[c];
    assign hwif_in.CTX[c].START.addr.swwel      = ctx_ro[c];
    assign hwif_in.CTX[c].END.addr.swwel        = ctx_ro[c];
    assign hwif_in.CTX[c].NONCE[0].data.swwel   = ctx_ro[c];
    assign hwif_in.CTX[c].NONCE[1].data.swwel   = ctx_ro[c];
    // An armed unwrap loads the whole context from its description at once.
    assign arm_ctx[c]                           = arm & (kw_ctx_q == 2'(c));
    assign hwif_in.CTX[c].CTRL.en.we            = arm_ctx[c];
    assign hwif_in.CTX[c].CTRL.en.next          = d_flags[0];
    assign hwif_in.CTX[c].CTRL.lock.we          = arm_ctx[c];
    assign hwif_in.CTX[c].CTRL.lock.next        = d_flags[1];
    assign hwif_in.CTX[c].CTRL.integ.we         = arm_ctx[c];
    assign hwif_in.CTX[c].CTRL.integ.next       = d_flags[2];
    assign hwif_in.CTX[c].CTRL.layout.we        = arm_ctx[c];
    assign hwif_in.CTX[c].CTRL.layout.next      = d_flags[3];
    assign hwif_in.CTX[c].START.addr.we         = arm_ctx[c];
    assign hwif_in.CTX[c].START.addr.next       = d_start[23:10];
    assign hwif_in.CTX[c].END.addr.we           = arm_ctx[c];
    assign hwif_in.CTX[c].END.addr.next         = d_end[24:10];
    assign hwif_in.CTX[c].NONCE[0].data.we      = arm_ctx[c];
    assign hwif_in.CTX[c].NONCE[0].data.next    = aes_pkg::bswap(d_nonce[63:32]);
    assign hwif_in.CTX[c].NONCE[1].data.we      = arm_ctx[c];
    assign hwif_in.CTX[c].NONCE[1].data.next    = aes_pkg::bswap(d_nonce[31:0]);
    assign hwif_in.CTX[c].VERSION.data.we       = arm_ctx[c];
    assign hwif_in.CTX[c].VERSION.data.next     = d_version;
    assign hwif_in.CTX[c].TAGBASE.addr.we       = arm_ctx[c];
    assign hwif_in.CTX[c].TAGBASE.addr.next     = d_tagbase[23:3];
  end

  // Registers hold memory-order words (byte 0 in bits [7:0]); AES wants byte 0 on top.
  for (genvar i = 0; i < 18; i++) begin : gen_blob
    assign blob[575 - 32 * i -: 32] = aes_pkg::bswap(blob_le[32 * i +: 32]);
  end
  for (genvar c = 0; c < 4; c++) begin : gen_nonce
    assign nonce[64 * c +: 64] = {aes_pkg::bswap(nonce_le[64 * c +: 32]), aes_pkg::bswap(nonce_le[64 * c + 32 +: 32])};
  end

  // Unwrap: refused for a locked context and after LOCK, ignored while one runs.
  assign kw_start     = unwrap_go & ~kw_busy & ~ctx_lock[unwrap_ctx] & ~glock;
  assign lock_err_set = unwrap_go & ~kw_busy & (ctx_lock[unwrap_ctx] | glock);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kw_ctx_q <= '0;
    end else if (kw_start) begin
      kw_ctx_q <= unwrap_ctx;
    end
  end

  xip_keywrap #(
    .Blocks   (8),
    .SBoxImpl (SBoxImpl)
  ) u_keywrap (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .kek_i   (otp_kek_i),
    .start_i (kw_start),
    .blob_i  (blob),
    .busy_o  (kw_busy),
    .check_o (kw_check),
    .done_o  (kw_done),
    .ok_o    (kw_ok),
    .data_o  (kw_data),
    .idle_o  (kw_idle)
  );

  // The description, big-endian words after the two keys and the nonce (all zero unless ok).
  assign {d_key, d_mac, d_nonce, d_start, d_end, d_flags, d_version, d_tagbase, d_slot} = kw_data;
  // A blob is bound to its slot. The checks are registered in the unwrap's check cycle, the cycle
  // before kw_done: arm writes every field of a context, its key and MAC key, so it leaves a
  // register through an AND (the comparators and the unwrap's own ok had been the XIP
  // controller's worst placed paths).
  assign d_slot_ok    = d_slot == {30'b0, kw_ctx_q};
  assign d_version_ok = d_version >= min_q;
  assign d_policy_ok  = ~otp_integ_req_i | (d_flags[0] & d_flags[2]);
  assign arm          = kw_done & arm_ok_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slot_ok_q    <= 1'b0;
      version_ok_q <= 1'b0;
      arm_ok_q     <= 1'b0;
    end else if (kw_check) begin
      slot_ok_q    <= d_slot_ok;
      version_ok_q <= d_version_ok;
      arm_ok_q     <= kw_ok & d_slot_ok & d_version_ok & d_policy_ok;
    end
  end

  // The largest of the three: the last value written to MIN_VERSION_RAISE may be lower than an
  // earlier one, which min_q keeps.
  always_comb begin
    min_d = min_q;
    if (otp_min_version_i > min_d) begin
      min_d = otp_min_version_i;
    end
    if (hwif_out.MIN_VERSION_RAISE.data.value > min_d) begin
      min_d = hwif_out.MIN_VERSION_RAISE.data.value;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      min_q <= '0;
    end else begin
      min_q <= min_d;
    end
  end

  // Anything that changes what a flash word reads as empties the prefetch buffer, and so does
  // LOCK: no word read before it (the plaintext key table) is served after it. The flush of a
  // change is registered (flush_q): the register write's address decode ends there. The core
  // takes it in the cycle after the change, the first cycle a read could see the new
  // configuration, and holds reads in that cycle, so no read is served from the old buffer nor
  // looked up with stale derived state. CTRL.FLUSH is a register itself (singlepulse): it is
  // taken as it stands, in the cycle after its write, as before.
  assign flush = (|cfg_mod) | (|ctx_mod) | kw_done | hwif_out.LOCK.lock.swmod;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      flush_q <= 1'b0;
    end else begin
      flush_q <= flush;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hits_q   <= '0;
      waits_q  <= '0;
      misses_q <= '0;
    end else if (ctrl_clr_stats) begin
      hits_q   <= '0;
      waits_q  <= '0;
      misses_q <= '0;
    end else begin
      hits_q   <= hits_q + {31'b0, stat_hit};
      waits_q  <= waits_q + {31'b0, stat_wait};
      misses_q <= misses_q + {31'b0, stat_miss};
    end
  end

  xip_core #(
    .FlashBytes       (FlashBytes),
    .PrefetchWords    (PrefetchWords),
    .KsRoundsPerCycle (KsRoundsPerCycle),
    .Integrity        (Integrity),
    .VerifiedLines    (VerifiedLines),
    .TagRun           (TagRun),
    .SBoxImpl         (SBoxImpl)
  ) u_core (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .req_i        (win_req_i),
    .req_addr_i   (win_addr_i),
    .ack_o        (win_ack_o),
    .err_o        (win_err_o),
    .rdata_o      (win_rdata_o),
    .cfg_div_i    (cfg_div),
    .cfg_dummy_i  (cfg_dummy),
    .cfg_cmd_i    (cfg_cmd),
    .cfg_cont_i   (cfg_cont),
    .flush_i      (flush_q | ctrl_flush),
    .ctx_en_i     (ctx_en),
    .ctx_start_i  (ctx_start),
    .ctx_end_i    (ctx_end),
    .ctx_nonce_i  (nonce),
    .ctx_integ_i  (ctx_integ),
    .ctx_layout_i (ctx_layout),
    .ctx_version_i(ctx_version),
    .ctx_tagbase_i(ctx_tagbase),
    .integ_only_i (otp_integ_req_i & glock),
    .key_we_i     (kw_done),
    .key_ctx_i    (kw_ctx_q),
    .key_ok_i     (arm),
    .key_i        (d_key),
    .mac_ok_i     (arm & d_flags[2]),
    .mac_key_i    (d_mac),
    .key_valid_o  (key_valid),
    .ctx_active_o (ctx_active),
    .mac_valid_o  (mac_valid),
    .bad_cfg_o    (bad_cfg),
    .integ_fail_o (integ_fail),
    .integ_ctx_o  (integ_ctx),
    .integ_addr_o (integ_addr),
    .busy_o       (core_busy),
    .cont_o       (core_cont),
    .stat_hit_o   (stat_hit),
    .stat_wait_o  (stat_wait),
    .stat_miss_o  (stat_miss),
    .sck_o        (flash_sck_o),
    .cs_no        (flash_cs_no),
    .io_o         (flash_io_o),
    .io_oe_o      (flash_io_oe_o),
    .io_i         (flash_io_i),
    .idle_o       (core_idle)
  );

  // Simulation clock gating. Besides a request, the register file changes in the cycle after one
  // (singlepulse fields clear; the pulses start an unwrap, flush or clear the counters), and
  // through hwset: unwrap_err (kw_done: the unwrap engine is not idle), lock_err (unwrap_go) and
  // INTEG_STATUS (integ_fail, then fail_q, with FAIL_CTX / FAIL_ADDR). The counters move only
  // with a read's acknowledge (win_req_i) or clr_stats; the core takes a flush (flush_q) in the
  // cycle after the change.
  periph_idle u_idle (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .reg_req_i (reg_req_i),
    .quiet_i   (!win_req_i && !unwrap_go && !ctrl_clr_stats && !flush && !flush_q && !integ_fail && !fail_q &&
                kw_idle && core_idle && min_d == min_q),
    .idle_o    (idle_o)
  );

  // The register file keeps the sticky error bits for software; nothing here needs them.
  logic unused;
  assign unused = ^{hwif_out.OTFAD_STATUS.unwrap_err.value, hwif_out.OTFAD_STATUS.lock_err.value,
                    hwif_out.OTFAD_STATUS.version_err.value, hwif_out.OTFAD_STATUS.policy_err.value,
                    d_start[31:24], d_start[9:0], d_end[31:25], d_end[9:0], d_flags[31:4],
                    d_tagbase[31:24], d_tagbase[2:0]};

endmodule

`default_nettype wire
