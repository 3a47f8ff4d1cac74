// SPDX-License-Identifier: Apache-2.0
// DMA testbench: dma_wb on a wb_xbar with two memories, a fake peripheral and a traffic master.
`default_nettype none

// Byte map (crossbar and DMA windows):
//   0x0000_0000  mem0, 64 KB           (window 0)
//   0x1000_0000  mem1, 64 KB           (window 1)
//   0x2000_0000  fake peripheral, 4 KB (window 2)
//   0x3000_0000  4 KB inside DMA window 3 but mapped to no slave: the crossbar answers ERR
// Crossbar masters: 0 DMA read, 1 DMA write, 2 traffic master. cocotb drives the register
// slave (wb_*), the request lines 2 and 3, the memories' wait/ERR knobs and the peripheral.
module tb_dma #(
  parameter int unsigned FifoDepth = 32,
  parameter bit          IdleCheck = 1'b1   // check the DMA's idle_o contract (see the end)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        wb_cyc_i,
  input  wire logic        wb_stb_i,
  input  wire logic        wb_we_i,
  input  wire logic [9:0]  wb_adr_i,
  input  wire logic [31:0] wb_dat_i,
  output logic [31:0]      wb_dat_o,
  output logic             wb_ack_o,
  output logic             wb_err_o,
  output logic             irq_o,
  output logic [3:0]       busy_o,
  input  wire logic [1:0]  ext_req_i,       // request lines 2 and 3
  input  wire logic [7:0]  mem0_wait_i,
  input  wire logic [7:0]  mem1_wait_i,
  input  wire logic        mem0_err_en_i,
  input  wire logic [29:0] mem0_err_adr_i,
  input  wire logic        mem1_err_en_i,
  input  wire logic [29:0] mem1_err_adr_i,
  input  wire logic        per_in_en_i,
  input  wire logic        per_out_en_i,
  input  wire logic [7:0]  per_latency_i,
  output logic [31:0]      per_blocks_o,
  input  wire logic        tr_en_i,
  input  wire logic        tr_prio_i,
  output logic [31:0]      tr_beats_o,
  // Monitors.
  output logic             rd_beat_o,       // DMA read master beat acknowledged
  output logic             wr_beat_o,
  output logic             rd_cyc_o,
  output logic             wr_cyc_o,
  output logic [29:0]      rd_adr_o,
  output logic [29:0]      wr_adr_o,
  output logic [2:0]       rd_cti_o,
  output logic [2:0]       wr_cti_o,
  output logic             rd_err_o,
  output logic             wr_err_o,
  output logic [3:0]       req_o,
  output logic [31:0]      cycle_o,
  output logic [31:0]      mon_rd_beats_o,
  output logic [31:0]      mon_wr_beats_o,
  output logic [31:0]      mon_violations_o,
  output logic [127:0]     mon_busy_cycles_o, // per channel: cycles with busy_o[c] high
  output logic             idle_o,            // the DMA's clock-gating hint
  output logic [31:0]      mon_idle_cycles_o  // cycles out of reset with idle_o high
);

  localparam int unsigned NM = 3;
  localparam int unsigned NS = 3;

  logic [NM-1:0]        m_prio, m_cyc, m_stb, m_we, m_ack, m_err;
  logic [NM-1:0][29:0]  m_adr;
  logic [NM-1:0][31:0]  m_wdat, m_rdat;
  logic [NM-1:0][3:0]   m_sel;
  logic [NM-1:0][2:0]   m_cti;
  logic [NM-1:0][1:0]   m_bte;
  logic [NS-1:0]        s_cyc, s_stb, s_we, s_ack, s_err;
  logic [NS-1:0][29:0]  s_adr;
  logic [NS-1:0][31:0]  s_wdat, s_rdat;
  logic [NS-1:0][3:0]   s_sel;
  logic [NS-1:0][2:0]   s_cti;
  logic [NS-1:0][1:0]   s_bte;
  logic [3:0]           req;
  logic                 per_in_req, per_out_req;

  assign req = {ext_req_i, per_out_req, per_in_req};

  dma_wb #(
    .FifoDepth (FifoDepth),
    .NumReq    (4),
    .NumWin    (4),
    .WinBase   ({32'h3000_0000, 32'h2000_0000, 32'h1000_0000, 32'h0000_0000}),
    .WinSize   ({32'h0000_1000, 32'h0000_1000, 32'h0001_0000, 32'h0001_0000})
  ) u_dma (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wb_cyc_i  (wb_cyc_i),
    .wb_stb_i  (wb_stb_i),
    .wb_we_i   (wb_we_i),
    .wb_adr_i  (wb_adr_i),
    .wb_dat_i  (wb_dat_i),
    .wb_sel_i  (4'hF),
    .wb_dat_o  (wb_dat_o),
    .wb_ack_o  (wb_ack_o),
    .wb_err_o  (wb_err_o),
    .rd_cyc_o  (m_cyc[0]),
    .rd_stb_o  (m_stb[0]),
    .rd_we_o   (m_we[0]),
    .rd_adr_o  (m_adr[0]),
    .rd_dat_o  (m_wdat[0]),
    .rd_sel_o  (m_sel[0]),
    .rd_cti_o  (m_cti[0]),
    .rd_bte_o  (m_bte[0]),
    .rd_dat_i  (m_rdat[0]),
    .rd_ack_i  (m_ack[0]),
    .rd_err_i  (m_err[0]),
    .rd_prio_o (m_prio[0]),
    .wr_cyc_o  (m_cyc[1]),
    .wr_stb_o  (m_stb[1]),
    .wr_we_o   (m_we[1]),
    .wr_adr_o  (m_adr[1]),
    .wr_dat_o  (m_wdat[1]),
    .wr_sel_o  (m_sel[1]),
    .wr_cti_o  (m_cti[1]),
    .wr_bte_o  (m_bte[1]),
    .wr_dat_i  (m_rdat[1]),
    .wr_ack_i  (m_ack[1]),
    .wr_err_i  (m_err[1]),
    .wr_prio_o (m_prio[1]),
    .req_i     (req),
    .irq_o     (irq_o),
    .busy_o    (busy_o),
    .idle_o    (idle_o)
  );

  tb_dma_traffic u_traffic (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (tr_en_i),
    .base_i  (30'h0000_3000),
    .cyc_o   (m_cyc[2]),
    .stb_o   (m_stb[2]),
    .adr_o   (m_adr[2]),
    .ack_i   (m_ack[2]),
    .err_i   (m_err[2]),
    .beats_o (tr_beats_o)
  );
  assign m_prio[2] = tr_prio_i;
  assign m_we[2]   = 1'b0;
  assign m_wdat[2] = '0;
  assign m_sel[2]  = 4'hF;
  assign m_cti[2]  = 3'b000;
  assign m_bte[2]  = 2'b00;

  wb_xbar #(
    .NumMasters    (NM),
    .NumSlaves     (NS),
    .SlaveBase     ({32'h2000_0000, 32'h1000_0000, 32'h0000_0000}),
    .SlaveMask     ({32'hFFFF_F000, 32'hFFFF_0000, 32'hFFFF_0000}),
    .TimeoutCycles (64)
  ) u_xbar (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .m_prio_i (m_prio),
    .m_cyc_i  (m_cyc),
    .m_stb_i  (m_stb),
    .m_we_i   (m_we),
    .m_adr_i  (m_adr),
    .m_dat_i  (m_wdat),
    .m_sel_i  (m_sel),
    .m_cti_i  (m_cti),
    .m_bte_i  (m_bte),
    .m_dat_o  (m_rdat),
    .m_ack_o  (m_ack),
    .m_err_o  (m_err),
    .s_cyc_o  (s_cyc),
    .s_stb_o  (s_stb),
    .s_we_o   (s_we),
    .s_adr_o  (s_adr),
    .s_dat_o  (s_wdat),
    .s_sel_o  (s_sel),
    .s_cti_o  (s_cti),
    .s_bte_o  (s_bte),
    .s_dat_i  (s_rdat),
    .s_ack_i  (s_ack),
    .s_err_i  (s_err)
  );

  tb_dma_mem #(.Words(16384), .Seed(16'hACE1)) u_mem0 (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wb_cyc_i  (s_cyc[0]),
    .wb_stb_i  (s_stb[0]),
    .wb_we_i   (s_we[0]),
    .wb_adr_i  (s_adr[0]),
    .wb_dat_i  (s_wdat[0]),
    .wb_sel_i  (s_sel[0]),
    .wb_cti_i  (s_cti[0]),
    .wb_bte_i  (s_bte[0]),
    .wb_dat_o  (s_rdat[0]),
    .wb_ack_o  (s_ack[0]),
    .wb_err_o  (s_err[0]),
    .wait_i    (mem0_wait_i),
    .err_en_i  (mem0_err_en_i),
    .err_adr_i (mem0_err_adr_i)
  );

  tb_dma_mem #(.Words(16384), .Seed(16'h1D2B)) u_mem1 (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wb_cyc_i  (s_cyc[1]),
    .wb_stb_i  (s_stb[1]),
    .wb_we_i   (s_we[1]),
    .wb_adr_i  (s_adr[1]),
    .wb_dat_i  (s_wdat[1]),
    .wb_sel_i  (s_sel[1]),
    .wb_cti_i  (s_cti[1]),
    .wb_bte_i  (s_bte[1]),
    .wb_dat_o  (s_rdat[1]),
    .wb_ack_o  (s_ack[1]),
    .wb_err_o  (s_err[1]),
    .wait_i    (mem1_wait_i),
    .err_en_i  (mem1_err_en_i),
    .err_adr_i (mem1_err_adr_i)
  );

  tb_dma_periph u_per (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .wb_cyc_i  (s_cyc[2]),
    .wb_stb_i  (s_stb[2]),
    .wb_we_i   (s_we[2]),
    .wb_adr_i  (s_adr[2]),
    .wb_dat_i  (s_wdat[2]),
    .wb_dat_o  (s_rdat[2]),
    .wb_ack_o  (s_ack[2]),
    .wb_err_o  (s_err[2]),
    .in_en_i   (per_in_en_i),
    .out_en_i  (per_out_en_i),
    .latency_i (per_latency_i),
    .in_req_o  (per_in_req),
    .out_req_o (per_out_req),
    .blocks_o  (per_blocks_o)
  );

  assign rd_beat_o = m_cyc[0] & m_ack[0];
  assign wr_beat_o = m_cyc[1] & m_ack[1];
  assign rd_cyc_o  = m_cyc[0];
  assign wr_cyc_o  = m_cyc[1];
  assign rd_adr_o  = m_adr[0];
  assign wr_adr_o  = m_adr[1];
  assign rd_cti_o  = m_cti[0];
  assign wr_cti_o  = m_cti[1];
  assign rd_err_o  = m_cyc[0] & m_err[0];
  assign wr_err_o  = m_cyc[1] & m_err[1];
  assign req_o     = req;

  logic [31:0] cycle_q, rd_viol, wr_viol, idle_cyc_q;
  logic [3:0][31:0] busy_cyc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q    <= '0;
      busy_cyc_q <= '0;
      idle_cyc_q <= '0;
    end else begin
      cycle_q <= cycle_q + 32'd1;
      if (idle_o) idle_cyc_q <= idle_cyc_q + 32'd1;
      for (int c = 0; c < 4; c++) begin
        if (busy_o[c]) busy_cyc_q[c] <= busy_cyc_q[c] + 32'd1;
      end
    end
  end
  assign cycle_o           = cycle_q;
  assign mon_busy_cycles_o = busy_cyc_q;
  assign mon_idle_cycles_o = idle_cyc_q;
  assign mon_violations_o  = rd_viol + wr_viol;

  tb_dma_wbmon u_rdmon (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .cyc_i        (m_cyc[0]),
    .stb_i        (m_stb[0]),
    .we_i         (m_we[0]),
    .adr_i        (m_adr[0]),
    .dat_i        (m_wdat[0]),
    .cti_i        (m_cti[0]),
    .bte_i        (m_bte[0]),
    .ack_i        (m_ack[0]),
    .err_i        (m_err[0]),
    .beats_o      (mon_rd_beats_o),
    .violations_o (rd_viol)
  );

  tb_dma_wbmon u_wrmon (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .cyc_i        (m_cyc[1]),
    .stb_i        (m_stb[1]),
    .we_i         (m_we[1]),
    .adr_i        (m_adr[1]),
    .dat_i        (m_wdat[1]),
    .cti_i        (m_cti[1]),
    .bte_i        (m_bte[1]),
    .ack_i        (m_ack[1]),
    .err_i        (m_err[1]),
    .beats_o      (mon_wr_beats_o),
    .violations_o (wr_viol)
  );

  // ---- idle_o check ----
  // The contract of idle_o: after a clock edge with idle_o high no register of the DMA may have
  // changed. snap holds every register (hierarchical references into dma_wb; the FIFO RAM's
  // words are covered by its write enable), compared across each edge that idle_o allowed to be
  // skipped. Update the list when registers are added.
  if (IdleCheck) begin : gen_idle_check
    localparam int unsigned SW = 8192;
    logic [SW-1:0] snap, snap_q;
    logic [3:0][1023:0] ch_snap;
    logic          idle_q;
    logic [31:0]   diff_q;

    for (genvar c = 0; c < 4; c++) begin : gen_ch_snap
      assign ch_snap[c] = 1024'({
        u_dma.u_periph.gen_ch[c].u_regs.ctrl_q, u_dma.u_periph.gen_ch[c].u_regs.flow_q,
        u_dma.u_periph.gen_ch[c].u_regs.src_q,  u_dma.u_periph.gen_ch[c].u_regs.dst_q,
        u_dma.u_periph.gen_ch[c].u_regs.len_q,  u_dma.u_periph.gen_ch[c].u_regs.next_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.state_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.code_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_left_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_left_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.sblk_off_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.dblk_off_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.scred_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.dcred_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wptr_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rptr_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.count_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.cyc_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wait_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rdb_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_iss_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_iss_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_ia_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_ia_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_brem_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_brem_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.need_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_bdone_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_bdone_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.free_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.avail_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.dtk_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_run,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s2_run,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_rd_left,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_rd_blk,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_rd_blk8,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_allow,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_wr_left,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_wr_blk,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.s1_wr_blk8,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_n_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_ok_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.rd_bend_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_n_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_ok_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wr_bend_q,
        u_dma.u_periph.u_core.gen_ch[c].u_ch.wrb_q});
    end

    assign snap = SW'({
      ch_snap,
      u_dma.u_periph.reg_req_q,
      u_dma.u_periph.u_reg.external_pending,
      u_dma.u_periph.u_reg.pending_rd_addr,
      u_dma.u_periph.u_reg.field_storage.CMD.start0.value,
      u_dma.u_periph.u_reg.field_storage.CMD.start1.value,
      u_dma.u_periph.u_reg.field_storage.CMD.start2.value,
      u_dma.u_periph.u_reg.field_storage.CMD.start3.value,
      u_dma.u_periph.u_reg.field_storage.CMD.abort0.value,
      u_dma.u_periph.u_reg.field_storage.CMD.abort1.value,
      u_dma.u_periph.u_reg.field_storage.CMD.abort2.value,
      u_dma.u_periph.u_reg.field_storage.CMD.abort3.value,
      u_dma.u_periph.u_reg.field_storage.CMD.clr_busy_cycles.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.done0.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.done1.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.done2.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.done3.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.err0.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.err1.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.err2.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_STATUS.err3.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_ENABLE.done.value,
      u_dma.u_periph.u_reg.field_storage.IRQ_ENABLE.err.value,
      u_dma.u_periph.u_core.busy_cyc_q,
      u_dma.u_periph.u_core.u_rd.u_issue.u_burst.busy_q, u_dma.u_periph.u_core.u_rd.u_issue.u_burst.ch_q, u_dma.u_periph.u_core.u_rd.u_issue.u_burst.left_q, u_dma.u_periph.u_core.u_rd.u_issue.u_burst.idx_q,
      u_dma.u_periph.u_core.u_rd.u_issue.u_burst.addr_q, u_dma.u_periph.u_core.u_rd.u_issue.u_burst.fixed_q, u_dma.u_periph.u_core.u_rd.u_issue.u_burst.multi_q,
      u_dma.u_periph.u_core.u_rd.u_issue.u_arb.last_q, u_dma.u_periph.u_core.u_rd.u_issue.u_arb.over_q,
      u_dma.u_periph.u_core.u_wr.u_issue.u_burst.busy_q, u_dma.u_periph.u_core.u_wr.u_issue.u_burst.ch_q, u_dma.u_periph.u_core.u_wr.u_issue.u_burst.left_q, u_dma.u_periph.u_core.u_wr.u_issue.u_burst.idx_q,
      u_dma.u_periph.u_core.u_wr.u_issue.u_burst.addr_q, u_dma.u_periph.u_core.u_wr.u_issue.u_burst.fixed_q, u_dma.u_periph.u_core.u_wr.u_issue.u_burst.multi_q,
      u_dma.u_periph.u_core.u_wr.u_issue.u_arb.last_q, u_dma.u_periph.u_core.u_wr.u_issue.u_arb.over_q,
      u_dma.u_periph.u_core.u_rd.desc_q,
      u_dma.u_periph.u_core.chk_busy_q, u_dma.u_periph.u_core.chk_ch_q,
      u_dma.u_periph.u_core.u_check.v1_q, u_dma.u_periph.u_core.u_check.desc1_q,
      u_dma.u_periph.u_core.u_check.a1_q, u_dma.u_periph.u_core.u_check.b1_q,
      u_dma.u_periph.u_core.u_check.ea1_q, u_dma.u_periph.u_core.u_check.eb1_q,
      u_dma.u_periph.u_core.u_check.early1_q,
      u_dma.u_periph.u_core.u_check.am1_q, u_dma.u_periph.u_core.u_check.bm1_q,
      u_dma.u_periph.u_core.u_check.v2_q, u_dma.u_periph.u_core.u_check.code2_q,
      u_dma.u_periph.u_core.u_fifo.rdata_q});

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        snap_q <= '0;
        idle_q <= 1'b0;
        diff_q <= '0;
      end else begin
        snap_q <= snap;
        idle_q <= idle_o;
        if (idle_o && u_dma.u_periph.u_core.fifo_we) begin
          diff_q <= diff_q + 32'd1;
          $error("tb_dma: FIFO RAM written while idle_o at cycle %0d", cycle_q);
        end
        if (idle_q && snap != snap_q) begin
          diff_q <= diff_q + 32'd1;
          $error("tb_dma: a register changed at an idle edge (cycle %0d): %h -> %h", cycle_q - 1,
                 snap_q, snap);
        end
      end
    end

    final $display("tb_dma: idle_o high in %0d of %0d cycles, %0d idle_o violations", idle_cyc_q,
                   cycle_q, diff_q);
  end

  logic unused;
  assign unused = ^{s_sel[2], s_cti[2], s_bte[2], m_rdat[2]};

endmodule

`default_nettype wire
