// SPDX-License-Identifier: Apache-2.0
// Wishbone shell of the DMA controller: register slave glue and the two masters' bus cycles.
`default_nettype none

// Everything but bus glue is in dma_periph. Register slave: the shared Wishbone classic bridge
// (ip/reg_bridge/rtl/reg_bridge_wbc.sv).
// Each master holds CYC/STB for a whole burst: CTI 000 for a single beat, otherwise 010
// (incrementing) or 001 (constant address, fixed address mode) and 111 on the last beat; BTE 00.
// The crossbar priority class of a burst is the channel's CTRL.BUS_PRIO (rd_prio_o/wr_prio_o).
// Address windows: WinBase/WinSize hold NumWin naturally aligned power-of-two byte windows,
// window i at [i*32 +: 32]; size 0 disables a window.
module dma_wb #(
  parameter int unsigned          FifoDepth = 32,
  parameter int unsigned          NumReq    = 4,
  parameter int unsigned          NumWin    = 3,
  // SRAM0 (256 KB), SRAM1 (64 KB), the AES peripheral (4 KB) of the aesoc memory map.
  parameter logic [NumWin*32-1:0] WinBase   = {32'hF000_1000, 32'h1000_0000, 32'h0000_0000},
  parameter logic [NumWin*32-1:0] WinSize   = {32'h0000_1000, 32'h0001_0000, 32'h0004_0000}
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // Register slave (Wishbone B4 classic, word offset in a 4 KB window).
  input  wire logic              wb_cyc_i,
  input  wire logic              wb_stb_i,
  input  wire logic              wb_we_i,
  input  wire logic [9:0]        wb_adr_i,
  input  wire logic [31:0]       wb_dat_i,
  input  wire logic [3:0]        wb_sel_i,
  output logic [31:0]            wb_dat_o,
  output logic                   wb_ack_o,
  output logic                   wb_err_o,
  // Read master.
  output logic                   rd_cyc_o,
  output logic                   rd_stb_o,
  output logic                   rd_we_o,
  output logic [29:0]            rd_adr_o,
  output logic [31:0]            rd_dat_o,
  output logic [3:0]             rd_sel_o,
  output logic [2:0]             rd_cti_o,
  output logic [1:0]             rd_bte_o,
  input  wire logic [31:0]       rd_dat_i,
  input  wire logic              rd_ack_i,
  input  wire logic              rd_err_i,
  output logic                   rd_prio_o,
  // Write master.
  output logic                   wr_cyc_o,
  output logic                   wr_stb_o,
  output logic                   wr_we_o,
  output logic [29:0]            wr_adr_o,
  output logic [31:0]            wr_dat_o,
  output logic [3:0]             wr_sel_o,
  output logic [2:0]             wr_cti_o,
  output logic [1:0]             wr_bte_o,
  input  wire logic [31:0]       wr_dat_i,
  input  wire logic              wr_ack_i,
  input  wire logic              wr_err_i,
  output logic                   wr_prio_o,
  // Peripheral request lines (level: the peripheral can take / give one block now).
  input  wire logic [NumReq-1:0] req_i,
  output logic                   irq_o,
  output logic [3:0]             busy_o,
  // Simulation clock-gating hint: 1 only when the next clock edge would change no register of
  // the controller (ip/clock_gate).
  output logic                   idle_o
);

  localparam logic [2:0] CTI_CLASSIC = 3'b000;
  localparam logic [2:0] CTI_CONST   = 3'b001;
  localparam logic [2:0] CTI_INCR    = 3'b010;
  localparam logic [2:0] CTI_END     = 3'b111;

  // Register port between the Wishbone bridge and the core.
  logic        reg_req, reg_req_is_wr, reg_req_stall_wr, reg_req_stall_rd;
  logic        reg_rd_ack, reg_rd_err, reg_wr_ack, reg_wr_err;
  logic [11:0] reg_addr;
  logic [31:0] reg_wr_data, reg_wr_biten, reg_rd_data;
  logic unused_reg_abort;  // the core answers every register access at once: nothing to abandon
  logic        rd_req, rd_burst, rd_more, rd_fixed;
  logic        wr_req, wr_burst, wr_more, wr_fixed;
  logic [3:0]  rd_beats, wr_beats;  // Wishbone bursts need no length up front (CTI says the end)
  logic        periph_idle;

  // The aesoc crossbar raises STB only at the selected slave (reg_bridge_wbc says why).
  reg_bridge_wbc #(.CycGated(1'b0)) u_bridge (
    .wb_cyc_i           (wb_cyc_i),
    .wb_stb_i           (wb_stb_i),
    .wb_we_i            (wb_we_i),
    .wb_adr_i           (wb_adr_i),
    .wb_dat_i           (wb_dat_i),
    .wb_sel_i           (wb_sel_i),
    .wb_dat_o           (wb_dat_o),
    .wb_ack_o           (wb_ack_o),
    .wb_err_o           (wb_err_o),
    .reg_req_o          (reg_req),
    .reg_req_is_wr_o    (reg_req_is_wr),
    .reg_addr_o         (reg_addr),
    .reg_wr_data_o      (reg_wr_data),
    .reg_wr_biten_o     (reg_wr_biten),
    .reg_abort_o        (unused_reg_abort),
    .reg_req_stall_wr_i (reg_req_stall_wr),
    .reg_req_stall_rd_i (reg_req_stall_rd),
    .reg_rd_ack_i       (reg_rd_ack),
    .reg_rd_err_i       (reg_rd_err),
    .reg_rd_data_i      (reg_rd_data),
    .reg_wr_ack_i       (reg_wr_ack),
    .reg_wr_err_i       (reg_wr_err)
  );

  dma_periph #(
    .FifoDepth (FifoDepth),
    .NumReq    (NumReq),
    .NumWin    (NumWin),
    .WinBase   (WinBase),
    .WinSize   (WinSize)
  ) u_periph (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .reg_req_i          (reg_req),
    .reg_req_is_wr_i    (reg_req_is_wr),
    .reg_addr_i         (reg_addr),
    .reg_wr_data_i      (reg_wr_data),
    .reg_wr_biten_i     (reg_wr_biten),
    .reg_req_stall_wr_o (reg_req_stall_wr),
    .reg_req_stall_rd_o (reg_req_stall_rd),
    .reg_rd_ack_o       (reg_rd_ack),
    .reg_rd_err_o       (reg_rd_err),
    .reg_rd_data_o      (reg_rd_data),
    .reg_wr_ack_o       (reg_wr_ack),
    .reg_wr_err_o       (reg_wr_err),
    .rd_req_o           (rd_req),
    .rd_addr_o          (rd_adr_o),
    .rd_burst_o         (rd_burst),
    .rd_more_o          (rd_more),
    .rd_beats_o         (rd_beats),
    .rd_fixed_o         (rd_fixed),
    .rd_prio_o          (rd_prio_o),
    .rd_data_i          (rd_dat_i),
    .rd_ack_i           (rd_ack_i),
    .rd_err_i           (rd_err_i),
    .wr_req_o           (wr_req),
    .wr_addr_o          (wr_adr_o),
    .wr_burst_o         (wr_burst),
    .wr_more_o          (wr_more),
    .wr_beats_o         (wr_beats),
    .wr_fixed_o         (wr_fixed),
    .wr_prio_o          (wr_prio_o),
    .wr_data_o          (wr_dat_o),
    .wr_ack_i           (wr_ack_i),
    .wr_err_i           (wr_err_i),
    .req_i              (req_i),
    .irq_o              (irq_o),
    .busy_o             (busy_o),
    .idle_o             (periph_idle)
  );

  function automatic logic [2:0] cti(logic burst, logic more, logic fixed);
    if (!burst) begin
      cti = CTI_CLASSIC;
    end else if (!more) begin
      cti = CTI_END;
    end else begin
      cti = fixed ? CTI_CONST : CTI_INCR;
    end
  endfunction

  assign rd_cyc_o = rd_req;
  assign rd_stb_o = rd_req;
  assign rd_we_o  = 1'b0;
  assign rd_dat_o = '0;
  assign rd_sel_o = 4'hF;
  assign rd_cti_o = cti(rd_burst, rd_more, rd_fixed);
  assign rd_bte_o = 2'b00;

  assign wr_cyc_o = wr_req;
  assign wr_stb_o = wr_req;
  assign wr_we_o  = 1'b1;
  assign wr_sel_o = 4'hF;
  assign wr_cti_o = cti(wr_burst, wr_more, wr_fixed);
  assign wr_bte_o = 2'b00;

  // The glue here has no registers (the bridge and the CTI mapping are combinational, the master
  // cycles are the engines' requests, covered by periph_idle); a register-slave cycle wakes the
  // controller even before its STB.
  assign idle_o = periph_idle & ~wb_cyc_i & ~wb_stb_i;

  logic unused;
  assign unused = ^{wr_dat_i, rd_beats, wr_beats};

endmodule

`default_nettype wire
