// SPDX-License-Identifier: Apache-2.0
// Memory-mapped SHA peripheral, bus-neutral: register file, input word FIFO, the sha_engine,
// error detection for bad register use, the interrupt and the DMA request line.
`default_nettype none

// Register map: ip/sha/data/sha.rdl (docs/registers/sha.md). Bus words are in memory byte order
// (byte 4i in bits 7:0), so software copies byte arrays with plain word loads and stores; the
// engine works on big-endian words: sha_pkg::bswap at this boundary.
//
// Register port (reg_*): peakrdl-regblock's `passthrough` CPU interface (docs/registers/README.md).
// A DATA_IN write while the input FIFO is full is acknowledged when there is room; the FIFO always
// drains (the engine takes words, or drops them once in error), so the wait is bounded, but a
// bus with a shorter bound may give it up: reg_abort_i (from the shell's bridge) then completes
// the held write at once without pushing its word, sets IRQ_STATUS.BUS_ABORT and stops the
// message with error ABORT (it lacks a word, so its digest would be wrong).
//
// Byte strobes: the register file merges the lanes of its own registers. DATA_IN, DIGEST and
// COUNT take whole words: a write with some but not all lanes enabled changes nothing and
// answers an error (reg_wr_err_o), a write with no lane enabled changes nothing.
module sha_periph #(
  parameter bit          Sha512Enable = 1'b1,
  parameter int unsigned Sha256Rounds = 1,
  parameter int unsigned InDepth      = 16
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        reg_req_i,
  input  wire logic        reg_req_is_wr_i,
  input  wire logic [11:0] reg_addr_i,      // byte offset in the 4 KB window
  input  wire logic [31:0] reg_wr_data_i,
  input  wire logic [31:0] reg_wr_biten_i,
  input  wire logic        reg_abort_i,     // complete the held DATA_IN write without effect
  output logic             reg_req_stall_wr_o,
  output logic             reg_req_stall_rd_o,
  output logic             reg_rd_ack_o,
  output logic             reg_rd_err_o,
  output logic [31:0]      reg_rd_data_o,
  output logic             reg_wr_ack_o,
  output logic             reg_wr_err_o,
  output logic             irq_o,
  // A DMA channel may write HWCFG.DMA_WORDS words into DATA_IN while asserted.
  output logic             dma_in_req_o,
  // Simulation clock gating hint: no register here or below changes at the next edge.
  output logic             idle_o
);

  localparam int unsigned LW       = $clog2(InDepth + 1);
  localparam int unsigned DmaWords = InDepth / 2;

  sha_reg_pkg::sha_periph__in_t  hwif_in;
  sha_reg_pkg::sha_periph__out_t hwif_out;

  logic        cmd_start, cmd_resume, cmd_clear, cmd_abort, alg_written;
  logic [2:0]  ctrl_alg;
  logic [63:0] msg_len;
  logic        din_req, din_pend_q, din_push, din_skip, aborted, reg_wr_err;
  logic [15:0] ctx_we, ctx_wr;
  logic [1:0]  count_we, count_wr;
  logic        partial;  // some but not all byte strobes of the request are set
  logic [31:0] din_data, din_pend_data_q;
  logic        in_full, in_empty, in_pop;
  logic [31:0] in_head;
  logic [LW-1:0] in_level;
  logic [31:0] ctx_q [16];
  logic [31:0] count_q [2];
  logic [7:0][63:0] ctx_state, eng_state;
  logic [63:0] eng_count;
  logic        eng_ready, eng_busy, eng_done, eng_saveable, eng_expect, eng_err, eng_round, eng_blk;
  logic        eng_idle;
  logic [2:0]  eng_code;
  logic        eng_done_q, eng_err_q;
  logic        readable, early_read, fault;
  logic [2:0]  fault_code;
  logic [31:0] digest_word [16];
  logic        wide;

  sha_reg u_reg (
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

  assign ctrl_alg    = hwif_out.CTRL.alg.value;
  assign alg_written = hwif_out.CTRL.alg.swmod;
  assign cmd_start   = hwif_out.CMD.start.value;
  assign cmd_resume  = hwif_out.CMD.resume.value;
  assign cmd_clear   = hwif_out.CMD.clear.value;
  assign cmd_abort   = hwif_out.CMD.abort.value;
  assign msg_len     = {hwif_out.MSG_LEN_HI.bytes.value, hwif_out.MSG_LEN_LO.bytes.value};
  assign wide        = Sha512Enable && sha_pkg::is_sha512_family(ctrl_alg);

  // ---- DATA_IN: into the FIFO now, or held until there is room ----
  assign din_req  = hwif_out.DATA_IN.req && hwif_out.DATA_IN.req_is_wr && &hwif_out.DATA_IN.wr_biten;
  // Not a whole word: answered at once, nothing pushed (with an error if some lanes were set).
  assign din_skip = hwif_out.DATA_IN.req && hwif_out.DATA_IN.req_is_wr && !din_req;
  // The register file takes no request while the word is held, so an abort meets only it.
  assign aborted  = reg_abort_i && din_pend_q;
  assign din_push = (din_pend_q && !aborted) || din_req;
  assign din_data = din_pend_q ? din_pend_data_q : hwif_out.DATA_IN.wr_data.word;
  // The FIFO flushes in a CMD.CLEAR cycle: a word written then is held and pushed (and
  // acknowledged) after it, never dropped while the register file waits for its acknowledge.
  assign hwif_in.DATA_IN.wr_ack = (din_push && !in_full && !cmd_clear) || din_skip || aborted;
  // A partial write is answered (with an error) in its request cycle, as a refused word. Whether
  // the strobes are partial is known from the port alone, beside the address decode.
  assign partial      = (|reg_wr_biten_i) && !(&reg_wr_biten_i);
  assign reg_wr_err_o = reg_wr_err ||
                        (partial && ((hwif_out.DATA_IN.req && hwif_out.DATA_IN.req_is_wr) || (|{ctx_wr, count_wr})));

  periph_fifo #(.Depth(InDepth), .Width(32)) u_in_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .flush_i (cmd_clear),
    .push_i  (din_push),
    .data_i  (din_data),
    .full_o  (in_full),
    .pop_i   (in_pop),
    .data_o  (in_head),
    .empty_o (in_empty),
    .level_o (in_level)
  );
  assign in_pop = eng_ready;

  // ---- DIGEST and COUNT: the engine's chaining value, readable only when it is a digest or a
  // context; writes stage a context for CMD.RESUME ----
  assign readable = eng_done || (eng_saveable && in_empty);
  for (genvar i = 0; i < 16; i++) begin : gen_digest
    if (i < 8) begin : gen_low
      assign digest_word[i] = wide ? eng_state[i / 2][((i % 2 == 0) ? 63 : 31) -: 32] : eng_state[i][31:0];
    end else begin : gen_high
      assign digest_word[i] = wide ? eng_state[i / 2][((i % 2 == 0) ? 63 : 31) -: 32] : 32'h0;
    end
    assign hwif_in.DIGEST[i].rd_ack = hwif_out.DIGEST[i].req;
    assign hwif_in.DIGEST[i].wr_ack = hwif_out.DIGEST[i].req;
    assign hwif_in.DIGEST[i].rd_data.word = readable ? sha_pkg::bswap(digest_word[i]) : 32'h0;
  end
  for (genvar j = 0; j < 8; j++) begin : gen_ctx
    assign ctx_state[j] = wide ? {sha_pkg::bswap(ctx_q[2*j]), sha_pkg::bswap(ctx_q[2*j+1])}
                               : {32'h0, sha_pkg::bswap(ctx_q[j])};
  end
  always_comb begin
    early_read = 1'b0;
    for (int i = 0; i < 16; i++) begin
      early_read |= hwif_out.DIGEST[i].req && !hwif_out.DIGEST[i].req_is_wr && !readable;
      ctx_wr[i]   = hwif_out.DIGEST[i].req && hwif_out.DIGEST[i].req_is_wr;
      ctx_we[i]   = ctx_wr[i] && &hwif_out.DIGEST[i].wr_biten;
    end
  end
  assign count_wr[0] = hwif_out.COUNT_LO.req && hwif_out.COUNT_LO.req_is_wr;
  assign count_wr[1] = hwif_out.COUNT_HI.req && hwif_out.COUNT_HI.req_is_wr;
  assign count_we[0] = count_wr[0] && &hwif_out.COUNT_LO.wr_biten;
  assign count_we[1] = count_wr[1] && &hwif_out.COUNT_HI.wr_biten;

  assign hwif_in.COUNT_LO.rd_ack = hwif_out.COUNT_LO.req;
  assign hwif_in.COUNT_LO.wr_ack = hwif_out.COUNT_LO.req;
  assign hwif_in.COUNT_LO.rd_data.bytes = eng_count[31:0];
  assign hwif_in.COUNT_HI.rd_ack = hwif_out.COUNT_HI.req;
  assign hwif_in.COUNT_HI.wr_ack = hwif_out.COUNT_HI.req;
  assign hwif_in.COUNT_HI.rd_data.bytes = eng_count[63:32];

  // ---- bad use: the engine zeroises the message and reports the code ----
  // (a START acts the cycle after its write, so a CTRL write right behind it counts as mid-message)
  always_comb begin
    fault      = 1'b1;
    fault_code = sha_pkg::SHA_ERR_ABORT;
    if (early_read) fault_code = sha_pkg::SHA_ERR_EARLY_READ;
    else if (alg_written && (eng_busy || cmd_start || cmd_resume)) fault_code = sha_pkg::SHA_ERR_ALG_CHANGE;
    else if (!cmd_abort && !aborted) fault = 1'b0;
  end

  sha_engine #(.Sha512Enable(Sha512Enable), .Sha256Rounds(Sha256Rounds)) u_engine (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .alg_i        (ctrl_alg),
    .len_i        (msg_len),
    .count_i      ({count_q[1], count_q[0]}),
    .state_i      (ctx_state),
    .start_i      (cmd_start),
    .resume_i     (cmd_resume),
    .clear_i      (cmd_clear),
    .fault_i      (fault),
    .fault_code_i (fault_code),
    .in_valid_i   (!in_empty),
    .in_ready_o   (eng_ready),
    .in_data_i    (in_head),
    .busy_o       (eng_busy),
    .done_o       (eng_done),
    .saveable_o   (eng_saveable),
    .expect_o     (eng_expect),
    .err_o        (eng_err),
    .err_code_o   (eng_code),
    .state_o      (eng_state),
    .count_o      (eng_count),
    .round_o      (eng_round),
    .blk_done_o   (eng_blk),
    .idle_o       (eng_idle)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      din_pend_q      <= 1'b0;
      din_pend_data_q <= '0;
      ctx_q           <= '{default: '0};
      count_q         <= '{default: '0};
      eng_done_q      <= 1'b0;
      eng_err_q       <= 1'b0;
    end else if (cmd_clear) begin
      din_pend_q      <= din_push;
      din_pend_data_q <= din_push ? din_data : '0;
      ctx_q           <= '{default: '0};
      count_q         <= '{default: '0};
      eng_done_q      <= 1'b0;
      eng_err_q       <= 1'b0;
    end else begin
      din_pend_q <= din_push && in_full;
      if (din_req) din_pend_data_q <= hwif_out.DATA_IN.wr_data.word;
      for (int i = 0; i < 16; i++) begin
        if (ctx_we[i]) ctx_q[i] <= hwif_out.DIGEST[i].wr_data.word;
      end
      if (count_we[0]) count_q[0] <= hwif_out.COUNT_LO.wr_data.bytes;
      if (count_we[1]) count_q[1] <= hwif_out.COUNT_HI.wr_data.bytes;
      eng_done_q <= eng_done;
      eng_err_q  <= eng_err;
    end
  end

  // A command acts one cycle after its write; STATUS read in that cycle already shows it.
  assign hwif_in.HWCFG.sha512.next     = Sha512Enable;
  assign hwif_in.HWCFG.in_depth.next   = 8'(InDepth);
  assign hwif_in.HWCFG.dma_words.next  = 8'(DmaWords);
  assign hwif_in.STATUS.busy.next      = (eng_busy | cmd_start | cmd_resume) & ~cmd_clear;
  assign hwif_in.STATUS.done.next      = eng_done & ~(cmd_start | cmd_resume | cmd_clear);
  assign hwif_in.STATUS.err.next       = eng_err & ~cmd_clear;
  assign hwif_in.STATUS.saveable.next  = eng_saveable & in_empty & ~(cmd_start | cmd_resume | cmd_clear);
  assign hwif_in.STATUS.in_ready.next  = ~in_full | cmd_clear;
  assign hwif_in.STATUS.in_level.next  = cmd_clear ? 8'd0 : 8'(in_level);
  assign hwif_in.ERR_CODE.code.next    = cmd_clear ? sha_pkg::SHA_ERR_NONE : eng_code;
  assign hwif_in.IRQ_STATUS.done.hwset = eng_done & ~eng_done_q;
  assign hwif_in.IRQ_STATUS.err.hwset  = eng_err & ~eng_err_q;
  assign hwif_in.IRQ_STATUS.bus_abort.hwset = aborted;
  assign hwif_in.PERF_BUSY.count.next   = hwif_out.PERF_BUSY.count.value + 32'd1;
  assign hwif_in.PERF_BUSY.count.we     = eng_round;
  assign hwif_in.PERF_BLOCKS.count.next = hwif_out.PERF_BLOCKS.count.value + 32'd1;
  assign hwif_in.PERF_BLOCKS.count.we   = eng_blk;
  assign hwif_in.PERF_MSG.count.next    = hwif_out.PERF_MSG.count.value + 32'd1;
  assign hwif_in.PERF_MSG.count.we      = eng_busy;

  periph_irq #(.Width(3)) u_irq (
    .status_i ({hwif_out.IRQ_STATUS.bus_abort.value, hwif_out.IRQ_STATUS.err.value,
                hwif_out.IRQ_STATUS.done.value}),
    .enable_i ({hwif_out.IRQ_ENABLE.bus_abort.value, hwif_out.IRQ_ENABLE.err.value,
                hwif_out.IRQ_ENABLE.done.value}),
    .irq_o    (irq_o)
  );

  // Room for a DMA block while the message wants data (or the engine drains after an error).
  assign dma_in_req_o = hwif_out.DMA_CTRL.in_en.value && (LW'(InDepth) - in_level) >= LW'(DmaWords) &&
                        (eng_expect || eng_err);

  // ---- idle_o: the SoC stops this block's clock in simulation while it is 1 ----
  // A request and the cycle after it are not idle (periph_idle).
  // Without a request (no decode, no field write, no DIGEST/COUNT/DATA_IN access) the rest only
  // moves through: a held DATA_IN word or stalled external access, a pending command, a word in
  // the FIFO (the engine takes it, or raises AFTER_FINAL), the engine (busy also counts
  // PERF_MSG; rounds PERF_BUSY, PERF_BLOCKS), and the done/err edges that set IRQ_STATUS.
  periph_idle u_idle (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .reg_req_i (reg_req_i),
    .quiet_i   (!reg_req_stall_wr_o && !reg_req_stall_rd_o &&
                !din_pend_q && !cmd_start && !cmd_resume && !cmd_clear && !cmd_abort &&
                in_empty && !eng_busy && eng_idle &&
                (eng_done == eng_done_q) && (eng_err == eng_err_q)),
    .idle_o    (idle_o)
  );

  // HWCFG reads the parameters back: each must fit its field.
  if (InDepth < 2 || InDepth > 255) begin : gen_bad_params
    $error("sha_periph: InDepth must be 2..255 (HWCFG.IN_DEPTH)");
  end


endmodule

`default_nettype wire
