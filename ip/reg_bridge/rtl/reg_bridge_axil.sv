// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite slave to a register port (peakrdl-regblock `passthrough` CPU interface).
`default_nettype none

// One access at a time: a write is taken when AWVALID and WVALID are both up (AWREADY and
// WREADY together), a read when ARVALID is; when both wait, reads and writes alternate. The
// answer is registered: BVALID or RVALID rise the cycle after the register file answers and
// stay up until BREADY or RREADY. xRESP is SLVERR for an unmapped offset or a refused access
// (the register file's error answer), for an access refused here before it reaches the core (a
// read whose ARADDR is not a multiple of 4; a write with a WSTRB lane below AWADDR's byte
// offset, which AXI's unaligned addressing leaves unset), or for an access that waited MaxWait
// cycles (reg_bridge_core: then also a timeout_o pulse, and the held access is abandoned in the
// core); OKAY otherwise. A write at an unaligned AWADDR with the strobes above it set is the
// narrow write AXI masters emit for a byte or halfword store, and is taken.
// AxPROT is accepted and not checked. AMBA signal names (no _i/_o) so that tools and bus models
// recognise the interface.
module reg_bridge_axil #(
  parameter int unsigned AddrWidth = 12,   // byte-address bits of the register port
  parameter int unsigned MaxWait   = 512   // cycles an access may wait; 0: no bound
) (
  input  wire logic                 clk_i,
  input  wire logic                 rst_ni,
  input  wire logic                 s_axil_awvalid,
  output logic                      s_axil_awready,
  input  wire logic [AddrWidth-1:0] s_axil_awaddr,
  input  wire logic [2:0]           s_axil_awprot,
  input  wire logic                 s_axil_wvalid,
  output logic                      s_axil_wready,
  input  wire logic [31:0]          s_axil_wdata,
  input  wire logic [3:0]           s_axil_wstrb,
  output logic                      s_axil_bvalid,
  input  wire logic                 s_axil_bready,
  output logic      [1:0]           s_axil_bresp,
  input  wire logic                 s_axil_arvalid,
  output logic                      s_axil_arready,
  input  wire logic [AddrWidth-1:0] s_axil_araddr,
  input  wire logic [2:0]           s_axil_arprot,
  output logic                      s_axil_rvalid,
  input  wire logic                 s_axil_rready,
  output logic      [31:0]          s_axil_rdata,
  output logic      [1:0]           s_axil_rresp,
  output logic                      timeout_o,
  // Register port.
  output logic                      reg_req_o,
  output logic                      reg_req_is_wr_o,
  output logic      [AddrWidth-1:0] reg_addr_o,
  output logic      [31:0]          reg_wr_data_o,
  output logic      [31:0]          reg_wr_biten_o,
  output logic                      reg_abort_o,
  input  wire logic                 reg_req_stall_wr_i,
  input  wire logic                 reg_req_stall_rd_i,
  input  wire logic                 reg_rd_ack_i,
  input  wire logic                 reg_rd_err_i,
  input  wire logic [31:0]          reg_rd_data_i,
  input  wire logic                 reg_wr_ack_i,
  input  wire logic                 reg_wr_err_i
);

  localparam logic [1:0] RespOkay   = 2'b00;
  localparam logic [1:0] RespSlverr = 2'b10;

  typedef enum logic [1:0] {StIdle, StBusy, StResp} state_e;

  state_e      state_q, state_d;
  logic        is_rd_q, last_rd_q, err_q;
  logic [31:0] rdata_q;
  logic        want_wr, want_rd, take_wr, take_rd, done, done_err, busy, wr_bad, rd_bad;
  logic [31:0] done_rdata;

  assign want_wr = s_axil_awvalid & s_axil_wvalid;
  assign want_rd = s_axil_arvalid;
  assign take_rd = (state_q == StIdle) & want_rd & (~want_wr | ~last_rd_q);
  assign take_wr = (state_q == StIdle) & want_wr & ~take_rd;

  // Lanes below the byte offset of AWADDR: AXI leaves them unset on an unaligned write.
  assign wr_bad = |(s_axil_wstrb & ((4'b0001 << s_axil_awaddr[1:0]) - 4'b0001));
  assign rd_bad = s_axil_araddr[1:0] != 2'b00;

  assign s_axil_awready = take_wr;
  assign s_axil_wready  = take_wr;
  assign s_axil_arready = take_rd;

  reg_bridge_core #(
    .AddrWidth (AddrWidth),
    .MaxWait   (MaxWait)
  ) u_core (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .start_i            (take_wr | take_rd),
    .start_wr_i         (take_wr),
    .start_bad_i        (take_wr ? wr_bad : rd_bad),
    .start_addr_i       (take_wr ? {s_axil_awaddr[AddrWidth-1:2], 2'b00}
                                 : {s_axil_araddr[AddrWidth-1:2], 2'b00}),
    .start_wdata_i      (s_axil_wdata),
    .start_wstrb_i      (take_wr ? s_axil_wstrb : 4'h0),
    .busy_o             (busy),
    .done_o             (done),
    .done_err_o         (done_err),
    .done_rdata_o       (done_rdata),
    .timeout_o          (timeout_o),
    .reg_req_o          (reg_req_o),
    .reg_req_is_wr_o    (reg_req_is_wr_o),
    .reg_addr_o         (reg_addr_o),
    .reg_wr_data_o      (reg_wr_data_o),
    .reg_wr_biten_o     (reg_wr_biten_o),
    .reg_abort_o        (reg_abort_o),
    .reg_req_stall_wr_i (reg_req_stall_wr_i),
    .reg_req_stall_rd_i (reg_req_stall_rd_i),
    .reg_rd_ack_i       (reg_rd_ack_i),
    .reg_rd_err_i       (reg_rd_err_i),
    .reg_rd_data_i      (reg_rd_data_i),
    .reg_wr_ack_i       (reg_wr_ack_i),
    .reg_wr_err_i       (reg_wr_err_i)
  );

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle: if (take_wr || take_rd) state_d = StBusy;
      StBusy: if (done) state_d = StResp;
      StResp: if (is_rd_q ? s_axil_rready : s_axil_bready) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      is_rd_q   <= 1'b0;
      last_rd_q <= 1'b0;
      err_q     <= 1'b0;
      rdata_q   <= '0;
    end else begin
      state_q <= state_d;
      if (take_wr || take_rd) begin
        is_rd_q   <= take_rd;
        last_rd_q <= take_rd;
      end
      if (state_q == StBusy && done) begin
        err_q   <= done_err;
        rdata_q <= done_rdata;
      end
    end
  end

  assign s_axil_bvalid = (state_q == StResp) & ~is_rd_q;
  assign s_axil_rvalid = (state_q == StResp) & is_rd_q;
  assign s_axil_bresp  = err_q ? RespSlverr : RespOkay;
  assign s_axil_rresp  = err_q ? RespSlverr : RespOkay;
  assign s_axil_rdata  = rdata_q;

  logic unused;
  assign unused = ^{s_axil_awprot, s_axil_arprot, busy};

endmodule

`default_nettype wire
