// SPDX-License-Identifier: Apache-2.0
// Memory-mapped AES peripheral, bus-neutral: register file, block FIFOs, external-register
// handshakes, the aes_engine, the interrupt and the DMA request lines.
`default_nettype none

// Register map: ip/aes/data/aes.rdl (docs/registers/aes.md). Words are in memory byte order:
// register word i holds block bytes 4i..4i+3 with byte 4i in bits 7:0, so software copies byte
// arrays with plain word loads and stores. The engine wants byte 0 in its top bits:
// aes_pkg::bswap.
//
// Register port (reg_*): peakrdl-regblock's `passthrough` CPU interface, documented in
// ip/aes/README.md. A request is held (stall) while an external register access is
// outstanding; a DATA_IN[3] write while the input FIFO is full, and a DATA_OUT read while no
// result is waiting, are acknowledged only when they can complete. A bus shell (aes_wbc, generated) adapts
// this port to its bus; the crossbar's slave timeout turns a wait that can never end into a bus
// error. reg_abort_i (from the shell's bridge: the bus gave up the held access) completes it
// at once without effect (no block queued, none released) and sets IRQ_STATUS.BUS_ABORT, so the
// next access is served.
//
// Byte strobes: the register file merges the lanes of its own registers. IV and DATA_IN take
// whole words: a write with some but not all lanes enabled changes nothing and answers an error
// (reg_wr_err_o), a write with no lane enabled changes and queues nothing.
module aes_periph #(
  parameter int unsigned RoundsPerCycle = 1,
  parameter bit          Pipelined      = 1'b0,
  parameter bit          DecEnable      = 1'b1,
  parameter int unsigned KeyLenMax      = 256,
  parameter int unsigned InDepth        = 2,
  parameter int unsigned OutDepth       = 2,
  parameter int unsigned GhashBits      = 16,  // GCM's GHASH bits per cycle; 0: no GCM
  // aes_engine's Masking: 0 off, 1 first-order masked (needs RoundsPerCycle 1, Pipelined 0),
  // 2 the same with its PRNG forced off (leakage-assessment control only)
  parameter int unsigned Masking        = 0,
  // aes_engine's S-boxes: 0 tower field (smallest on iCE40), 1 tables (fewest LUT levels on ECP5)
  parameter int unsigned SBoxImpl       = 0
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // Register port: one request per cycle while reg_req_i and not stalled.
  input  wire logic        reg_req_i,
  input  wire logic        reg_req_is_wr_i,
  input  wire logic [11:0] reg_addr_i,      // byte offset in the 4 KB window
  input  wire logic [31:0] reg_wr_data_i,
  input  wire logic [31:0] reg_wr_biten_i,
  input  wire logic        reg_abort_i,     // complete the held external access without effect
  output logic             reg_req_stall_wr_o,
  output logic             reg_req_stall_rd_o,
  output logic             reg_rd_ack_o,
  output logic             reg_rd_err_o,
  output logic [31:0]      reg_rd_data_o,
  output logic             reg_wr_ack_o,
  output logic             reg_wr_err_o,
  output logic             irq_o,
  // DMA request lines: a channel may move one block in / out while asserted.
  output logic             dma_in_req_o,
  output logic             dma_out_req_o,
  // Simulation clock-gating hint: 1 only when the next clock edge would change no register
  // here (see the end of this module).
  output logic             idle_o
);

  localparam int unsigned ILW = $clog2(InDepth + 1);
  localparam int unsigned OLW = $clog2(OutDepth + 1);

  aes_reg_pkg::aes_periph__in_t  hwif_in;
  aes_reg_pkg::aes_periph__out_t hwif_out;

  // Register fields used by the datapath.
  logic [1:0]  ctrl_mode, ctrl_key_len, ctrl_ctr_width;
  logic        ctrl_dir, ctrl_manual_start;
  logic [1:0]  ctrl_gcm_phase;
  logic [3:0]  ctrl_gcm_bytes, ctrl_tag_len;
  logic        cmd_key_load, cmd_start, cmd_clear, cmd_gcm_start, cmd_gcm_final, cmd_reseed;
  logic [127:0] prng_seed;
  logic [127:0] eng_tag, expected_tag;
  logic        eng_tag_valid, eng_tag_mismatch;
  logic [31:0] key_word [8];
  logic        key_wipe;
  logic [3:0]  iv_req, iv_req_wr, din_req, din_req_wr, dout_req;
  logic [3:0]  iv_we, din_we;  // whole-word writes (a partial one is refused)
  logic        partial;        // some but not all byte strobes of the request are set
  logic [31:0] iv_wdata [4];
  logic [31:0] din_wdata [4];
  logic [31:0] perf_busy, perf_blocks;

  // External access in progress: the register file raises req for one cycle and then waits.
  typedef enum logic [1:0] { EXT_NONE, EXT_DIN3, EXT_DOUT } ext_kind_e;
  ext_kind_e   pend_q, pend_d;
  logic [1:0]  pend_word_q, pend_word_d;
  ext_kind_e   cur_kind;   // the access being served this cycle
  logic [1:0]  cur_word;
  logic        cur_done;
  logic        aborted;    // the held access is given up: acknowledged, no effect
  logic        reg_wr_err;

  // Datapath.
  logic [31:0]  din_q [4];
  logic [31:0]  iv_stage_q [4];
  logic         in_push, in_full, in_empty, in_pop;
  logic         out_push, out_full, out_empty, out_pop;
  logic [127:0] in_head, out_head, staged_block;
  logic [ILW-1:0] in_level;
  logic [OLW-1:0] out_level;
  logic         eng_in_ready, eng_out_valid, eng_busy, eng_err, eng_key_ready;
  logic [127:0] eng_out, eng_iv;
  logic [255:0] eng_key;
  logic         eng_err_q, overflow_q;
  logic         iv_load;

  // A command acts one cycle after its write (the register file registers the pulse); STATUS
  // read in that cycle must already show the command's effect, not the state before it.
  logic status_busy;
  assign status_busy = eng_busy | ~in_empty | cmd_key_load | cmd_start | cmd_clear |
                       cmd_gcm_start | cmd_gcm_final;

  aes_reg u_reg (
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
    .s_cpuif_wr_err       (reg_wr_err),
    .hwif_in              (hwif_in),
    .hwif_out             (hwif_out)
  );

  assign ctrl_mode         = hwif_out.CTRL.mode.value;
  assign ctrl_dir          = hwif_out.CTRL.dir.value;
  assign ctrl_key_len      = hwif_out.CTRL.key_len.value;
  assign ctrl_ctr_width    = hwif_out.CTRL.ctr_width.value;
  assign ctrl_manual_start = hwif_out.CTRL.manual_start.value;
  assign ctrl_gcm_phase    = hwif_out.CTRL.gcm_phase.value;
  assign ctrl_gcm_bytes    = hwif_out.CTRL.gcm_bytes.value;
  assign ctrl_tag_len      = hwif_out.CTRL.tag_len.value;
  assign cmd_gcm_start     = hwif_out.CMD.gcm_start.value;
  assign cmd_gcm_final     = hwif_out.CMD.gcm_final.value;
  assign cmd_key_load      = hwif_out.CMD.key_load.value;
  assign cmd_start         = hwif_out.CMD.start.value;
  assign cmd_clear         = hwif_out.CMD.clear.value;
  assign cmd_reseed        = hwif_out.CMD.reseed.value;
  assign perf_busy         = hwif_out.PERF_BUSY.count.value;
  assign perf_blocks       = hwif_out.PERF_BLOCKS.count.value;

  assign hwif_in.HWCFG.rounds_per_cycle.next = 4'(RoundsPerCycle);
  assign hwif_in.HWCFG.pipelined.next        = Pipelined;
  assign hwif_in.HWCFG.dec_enable.next       = DecEnable;
  assign hwif_in.HWCFG.key256.next           = (KeyLenMax == 256);
  assign hwif_in.HWCFG.in_depth.next         = 4'(InDepth);
  assign hwif_in.HWCFG.out_depth.next        = 4'(OutDepth);
  assign hwif_in.HWCFG.ghash_bits.next       = 8'(GhashBits);
  assign hwif_in.HWCFG.masking.next          = 2'(Masking);
  assign hwif_in.STATUS.busy.next            = status_busy;
  assign hwif_in.STATUS.in_ready.next        = ~in_full | cmd_clear;
  assign hwif_in.STATUS.out_valid.next       = ~out_empty & ~cmd_clear;
  assign hwif_in.STATUS.err.next             = (eng_err_q | overflow_q) & ~cmd_clear;
  assign hwif_in.STATUS.key_ready.next       = eng_key_ready & ~cmd_key_load & ~cmd_clear;
  assign hwif_in.STATUS.tag_valid.next       = eng_tag_valid & ~cmd_gcm_start & ~cmd_clear;
  assign hwif_in.STATUS.tag_mismatch.next    = eng_tag_mismatch & ~cmd_gcm_start & ~cmd_clear;
  assign hwif_in.STATUS.in_level.next        = cmd_clear ? 4'd0 : 4'(in_level);
  assign hwif_in.STATUS.out_level.next       = cmd_clear ? 4'd0 : 4'(out_level);
  assign hwif_in.IRQ_STATUS.done.hwset       = out_push;
  assign hwif_in.IRQ_STATUS.err.hwset        = (eng_err & ~eng_err_q) | (cmd_start & in_full);
  assign hwif_in.IRQ_STATUS.bus_abort.hwset  = aborted;
  assign hwif_in.PERF_BUSY.count.next        = perf_busy + 32'd1;
  assign hwif_in.PERF_BUSY.count.we          = eng_busy | ~in_empty;
  assign hwif_in.PERF_BLOCKS.count.next      = perf_blocks + 32'd1;
  assign hwif_in.PERF_BLOCKS.count.we        = out_push;
  for (genvar i = 0; i < 8; i++) begin : gen_key_in
    assign hwif_in.KEY[i].word.hwclr = key_wipe;
  end
  for (genvar i = 0; i < 4; i++) begin : gen_tag
    assign hwif_in.TAG[i].word.next            = aes_pkg::bswap(eng_tag[127 - 32*i -: 32]);
    assign hwif_in.EXPECTED_TAG[i].word.hwclr  = cmd_clear;
    assign expected_tag[127 - 32*i -: 32]      = aes_pkg::bswap(hwif_out.EXPECTED_TAG[i].word.value);
  end
  for (genvar i = 0; i < 4; i++) begin : gen_ext_in
    assign hwif_in.IV[i].rd_ack = iv_req[i] & ~iv_req_wr[i];
    assign hwif_in.IV[i].wr_ack = iv_req[i] & iv_req_wr[i];  // a partial write too (refused)
    assign hwif_in.IV[i].rd_data.word = aes_pkg::bswap(eng_iv[127 - 32*i -: 32]);
    // The abandon's acknowledge is a term of its own (flip-flops and reg_abort_i only), off the
    // path through the FIFO state.
    assign hwif_in.DATA_IN[i].wr_ack = (i == 3) ? ((din_req[3] & (ctrl_manual_start | ~din_we[3])) |
                                                  ((cur_kind == EXT_DIN3) & cur_done) |
                                                  (aborted & (pend_q == EXT_DIN3)))
                                               : din_req[i];
    assign hwif_in.DATA_OUT[i].rd_ack = ((cur_kind == EXT_DOUT) & cur_done & (cur_word == 2'(i))) |
                                        (aborted & (pend_q == EXT_DOUT) & (pend_word_q == 2'(i)));
    assign hwif_in.DATA_OUT[i].rd_data.word = aes_pkg::bswap(out_head[127 - 32*i -: 32]);
  end

  // The seed words are wiped once used, so no entropy stays readable by a probe of the bus side.
  for (genvar i = 0; i < 4; i++) begin : gen_prng_seed
    assign hwif_in.PRNG_SEED[i].word.hwclr = cmd_reseed | cmd_clear;
    assign prng_seed[127 - 32*i -: 32]     = aes_pkg::bswap(hwif_out.PRNG_SEED[i].word.value);
  end

  for (genvar i = 0; i < 8; i++) begin : gen_key_regs
    assign key_word[i] = hwif_out.KEY[i].word.value;
  end
  for (genvar i = 0; i < 4; i++) begin : gen_ext_regs
    assign iv_req[i]     = hwif_out.IV[i].req;
    assign iv_req_wr[i]  = hwif_out.IV[i].req_is_wr;
    assign iv_wdata[i]   = hwif_out.IV[i].wr_data.word;
    assign din_req[i]    = hwif_out.DATA_IN[i].req;
    assign din_req_wr[i] = hwif_out.DATA_IN[i].req_is_wr;
    assign din_wdata[i]  = hwif_out.DATA_IN[i].wr_data.word;
    assign dout_req[i]   = hwif_out.DATA_OUT[i].req;
    assign iv_we[i]      = iv_req[i] & iv_req_wr[i] & (&hwif_out.IV[i].wr_biten);
    assign din_we[i]     = din_req[i] & din_req_wr[i] & (&hwif_out.DATA_IN[i].wr_biten);
  end
  // The answer to a partial write comes with its acknowledge, in the request cycle. Whether the
  // strobes are partial is known from the port alone, beside the address decode.
  assign partial      = (|reg_wr_biten_i) & ~(&reg_wr_biten_i);
  assign reg_wr_err_o = reg_wr_err | (partial & (|{iv_req & iv_req_wr, din_req & din_req_wr}));

  // ---- external registers ----
  // IV words and DATA_IN[0..2] complete at once; DATA_IN[3] (auto-start) waits for FIFO room and
  // DATA_OUT waits for a result. Only one external access is outstanding at a time. The register
  // file takes no request while one is held, so reg_abort_i can only meet a held one (pend_q).
  always_comb begin
    cur_kind = pend_q;
    cur_word = pend_word_q;
    if (din_we[3] && !ctrl_manual_start) begin
      cur_kind = EXT_DIN3;
    end else if (|dout_req) begin
      cur_kind = EXT_DOUT;
      cur_word = dout_req[3] ? 2'd3 : dout_req[2] ? 2'd2 : dout_req[1] ? 2'd1 : 2'd0;
    end
    unique case (cur_kind)
      EXT_DIN3: cur_done = ~in_full;
      EXT_DOUT: cur_done = ~out_empty;
      default:  cur_done = 1'b0;
    endcase
    aborted     = reg_abort_i & (pend_q != EXT_NONE);
    pend_d      = (cur_done | aborted) ? EXT_NONE : cur_kind;
    pend_word_d = cur_word;
  end

  assign iv_load = iv_we[3];

  for (genvar i = 0; i < 4; i++) begin : gen_words
    assign staged_block[127 - 32*i -: 32] = aes_pkg::bswap(i == 3 ? din_wdata[3] : din_q[i]);
  end

  // ---- FIFOs and engine ----
  // With auto-start the block is DATA_IN[0..2] staged plus the DATA_IN[3] word on the bus; with
  // manual start, all four staged words.
  logic [127:0] manual_block;
  for (genvar i = 0; i < 4; i++) begin : gen_manual
    assign manual_block[127 - 32*i -: 32] = aes_pkg::bswap(din_q[i]);
  end

  assign in_push  = ((cur_kind == EXT_DIN3) & cur_done & ~aborted) | (cmd_start & ~in_full);
  assign out_pop  = (cur_kind == EXT_DOUT) & cur_done & ~aborted & (cur_word == 2'd3);
  assign key_wipe = cmd_key_load | cmd_clear;

  periph_fifo #(.Depth(InDepth), .Width(128)) u_in_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (cmd_clear),
    .push_i  (in_push),
    .data_i  (cmd_start ? manual_block : staged_block),
    .full_o  (in_full),
    .pop_i   (in_pop),
    .data_o  (in_head),
    .empty_o (in_empty),
    .level_o (in_level)
  );

  periph_fifo #(.Depth(OutDepth), .Width(128)) u_out_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (cmd_clear),
    .push_i  (out_push),
    .data_i  (eng_out),
    .full_o  (out_full),
    .pop_i   (out_pop),
    .data_o  (out_head),
    .empty_o (out_empty),
    .level_o (out_level)
  );

  for (genvar i = 0; i < 8; i++) begin : gen_key
    assign eng_key[255 - 32*i -: 32] = aes_pkg::bswap(key_word[i]);
  end

  assign in_pop   = ~in_empty & eng_in_ready;
  assign out_push = eng_out_valid & ~out_full;

  aes_engine #(
    .RoundsPerCycle (RoundsPerCycle),
    .Pipelined      (Pipelined),
    .DecEnable      (DecEnable),
    .KeyLenMax      (KeyLenMax),
    .GhashBits      (GhashBits),
    .Masking        (Masking),
    .SBoxImpl       (SBoxImpl)
  ) u_engine (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .mode_i      (ctrl_mode),
    .dir_i       (ctrl_dir),
    .key_len_i   (ctrl_key_len),
    .ctr_width_i (ctrl_ctr_width),
    .key_i       (eng_key),
    .key_we_i    (cmd_key_load),
    .key_ready_o (eng_key_ready),
    .iv_i        ({aes_pkg::bswap(iv_stage_q[0]), aes_pkg::bswap(iv_stage_q[1]),
                   aes_pkg::bswap(iv_stage_q[2]), aes_pkg::bswap(iv_wdata[3])}),
    .iv_we_i     (iv_load),
    .iv_o        (eng_iv),
    .clear_i     (cmd_clear),
    .in_valid_i  (~in_empty),
    .in_ready_o  (eng_in_ready),
    .in_data_i   (in_head),
    .out_valid_o (eng_out_valid),
    .out_ready_i (~out_full),
    .out_data_o  (eng_out),
    .gcm_phase_i        (ctrl_gcm_phase),
    .gcm_bytes_i        (ctrl_gcm_bytes),
    .gcm_start_i        (cmd_gcm_start),
    .gcm_final_i        (cmd_gcm_final),
    .gcm_tag_len_i      (ctrl_tag_len),
    .gcm_tag_i          (expected_tag),
    .gcm_tag_o          (eng_tag),
    .gcm_tag_valid_o    (eng_tag_valid),
    .gcm_tag_mismatch_o (eng_tag_mismatch),
    .prng_seed_i        (prng_seed),
    .prng_seed_we_i     (cmd_reseed),
    .busy_o      (eng_busy),
    .err_o       (eng_err)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q      <= EXT_NONE;
      pend_word_q <= '0;
      eng_err_q   <= 1'b0;
      overflow_q  <= 1'b0;
      for (int i = 0; i < 4; i++) begin
        din_q[i]      <= '0;
        iv_stage_q[i] <= '0;
      end
    end else begin
      pend_q      <= pend_d;
      pend_word_q <= pend_word_d;
      eng_err_q   <= eng_err & ~cmd_clear;
      // CMD.START with a full input FIFO is refused loudly, never dropped silently.
      overflow_q  <= (overflow_q | (cmd_start & in_full)) & ~cmd_clear;
      for (int i = 0; i < 4; i++) begin
        if (cmd_clear) begin
          din_q[i]      <= '0;
          iv_stage_q[i] <= '0;
        end else begin
          if (din_we[i]) din_q[i] <= din_wdata[i];
          if (iv_we[i]) iv_stage_q[i] <= iv_wdata[i];
        end
      end
    end
  end

  periph_irq #(.Width(3)) u_irq (
    .status_i ({hwif_out.IRQ_STATUS.bus_abort.value, hwif_out.IRQ_STATUS.err.value,
                hwif_out.IRQ_STATUS.done.value}),
    .enable_i ({hwif_out.IRQ_ENABLE.bus_abort.value, hwif_out.IRQ_ENABLE.err.value,
                hwif_out.IRQ_ENABLE.done.value}),
    .irq_o    (irq_o)
  );
  assign dma_in_req_o  = hwif_out.DMA_CTRL.in_en.value & ~in_full;
  assign dma_out_req_o = hwif_out.DMA_CTRL.out_en.value & ~out_empty;

  // ---- idle_o (simulation clock gating) ----
  // 1 only if the next edge changes no register of this module, the register file or the engine
  // (ip/clock_gate). Everything here moves only on a register access, a CMD pulse (the cycle
  // after its write) or engine activity:
  // - register request now or last cycle (periph_idle: singlepulse CMD fields and write side
  //   effects settle in the cycle after), or an external access outstanding (the register
  //   file's external_pending, shown as the stall output, and pend_q here);
  // - engine: busy_o covers blocks in flight, the cipher core (key expansion included), GHASH
  //   and every GCM state but the three that wait for blocks; without busy_o its registers move
  //   only on key_we_i, iv_we_i, clear_i, in_valid_i, gcm_start_i, gcm_final_i, all excluded
  //   here (iv_load needs a request);
  // - input FIFO holding a block: the engine takes it, or PERF_BUSY counts;
  // - eng_err_q trailing a new engine error (sets IRQ_STATUS.err).
  // The FIFOs, IRQ_STATUS, PERF_* and the KEY/EXPECTED_TAG wipes change only under these terms.
  // One exception: a masked engine's PRNG steps every cycle. Stopping it while idle changes only
  // which masks follow, never a result or a cycle count.
  periph_idle u_idle (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .reg_req_i (reg_req_i),
    .quiet_i   (~reg_req_stall_wr_o & (pend_q == EXT_NONE) &
                ~(cmd_key_load | cmd_start | cmd_clear | cmd_gcm_start | cmd_gcm_final | cmd_reseed) &
                ~eng_busy & ~eng_out_valid & in_empty & (eng_err == eng_err_q)),
    .idle_o    (idle_o)
  );

  // HWCFG reads the parameters back: each must fit its field (tests/test_reg_enums.py checks the
  // SoC configurations, this every other instance).
  if (InDepth < 1 || InDepth > 15 || OutDepth < 1 || OutDepth > 15 || RoundsPerCycle > 15 ||
      GhashBits > 255 || Masking > 2) begin : gen_bad_params
    $error("aes_periph: InDepth, OutDepth, RoundsPerCycle, GhashBits, Masking must fit their HWCFG fields");
  end

  // DATA_OUT is read-only: the register file sends it reads alone.
  logic unused;
  always_comb begin
    unused = 1'b0;
    for (int i = 0; i < 4; i++) begin
      unused ^= hwif_out.DATA_OUT[i].req_is_wr;
    end
  end

endmodule

`default_nettype wire
