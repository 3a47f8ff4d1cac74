// SPDX-License-Identifier: Apache-2.0
// AXI4 write master for the DMA core's bus-neutral write port: one burst outstanding.
`default_nettype none

// A core burst becomes one AXI burst (INCR, or FIXED for a constant-address side) of beats_i
// beats, split where an INCR burst would cross a 4 KB boundary. The write address is registered
// when the burst starts (AWVALID from the next cycle) while W beats may already go: AXI lets a
// slave wait for WVALID before AWREADY, so W never waits for AW. Each W beat but the AXI burst's
// last is acknowledged to the core at once; the last beat's acknowledge waits for the write
// response, so an SLVERR or DECERR there becomes the core's err_i for that beat and the channel
// stops with its bus-error code. AMBA signal names (no _i/_o) as in reg_bridge_axil.
module dma_axi_wr #(
  parameter int unsigned IdWidth = 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // Core write port.
  input  wire logic               req_i,
  input  wire logic [29:0]        addr_i,
  input  wire logic [3:0]         beats_i,
  input  wire logic               fixed_i,
  input  wire logic               prio_i,
  input  wire logic [31:0]        data_i,
  output logic                    ack_o,
  output logic                    err_o,
  // AXI4 write address, data and response channels.
  output logic      [IdWidth-1:0] m_axi_awid,
  output logic      [31:0]        m_axi_awaddr,
  output logic      [7:0]         m_axi_awlen,
  output logic      [2:0]         m_axi_awsize,
  output logic      [1:0]         m_axi_awburst,
  output logic                    m_axi_awlock,
  output logic      [3:0]         m_axi_awcache,
  output logic      [2:0]         m_axi_awprot,
  output logic      [3:0]         m_axi_awqos,
  output logic                    m_axi_awvalid,
  input  wire logic               m_axi_awready,
  output logic      [31:0]        m_axi_wdata,
  output logic      [3:0]         m_axi_wstrb,
  output logic                    m_axi_wlast,
  output logic                    m_axi_wvalid,
  input  wire logic               m_axi_wready,
  input  wire logic [IdWidth-1:0] m_axi_bid,
  input  wire logic [1:0]         m_axi_bresp,
  input  wire logic               m_axi_bvalid,
  output logic                    m_axi_bready,
  output logic                    idle_o   // no burst, no address pending, none asked for
);

  localparam logic [1:0] BurstFixed = 2'b00;
  localparam logic [1:0] BurstIncr  = 2'b01;

  typedef enum logic [1:0] {WrIdle, WrData, WrResp} state_e;

  state_e      state_q, state_d;
  logic [3:0]  cnt_q, cnt_d;  // W beats of the AXI burst after the current one
  logic        aw_pend_q;
  logic [29:0] aw_addr_q;
  logic [3:0]  aw_len_q;
  logic        aw_fixed_q, aw_prio_q;
  logic [3:0]  len, cnt_now;
  logic [10:0] room;          // words to the next 4 KB boundary
  logic        start, w_hs;

  assign room    = 11'd1024 - {1'b0, addr_i[9:0]};
  assign len     = (!fixed_i && room < 11'(beats_i)) ? room[3:0] : beats_i;
  // A protocol-conforming slave answers B only after AW: the guard keeps a broken one from
  // starting a burst under a pending address.
  assign start   = (state_q == WrIdle) && req_i && !aw_pend_q;
  assign cnt_now = start ? len - 4'd1 : cnt_q;

  assign m_axi_wvalid = start || (state_q == WrData);
  assign m_axi_wlast  = (cnt_now == 4'd0);
  assign m_axi_wdata  = data_i;
  assign m_axi_wstrb  = 4'hF;
  assign w_hs         = m_axi_wvalid && m_axi_wready;
  assign m_axi_bready = (state_q == WrResp);

  always_comb begin
    state_d = state_q;
    cnt_d   = cnt_q;
    unique case (state_q)
      WrIdle, WrData: begin
        if (start) begin
          state_d = WrData;
          cnt_d   = cnt_now;
        end
        if (w_hs) begin
          if (m_axi_wlast) begin
            state_d = WrResp;
          end else begin
            state_d = WrData;
            cnt_d   = cnt_now - 4'd1;
          end
        end
      end
      WrResp: if (m_axi_bvalid) state_d = WrIdle;
      default: state_d = WrIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= WrIdle;
      cnt_q      <= '0;
      aw_pend_q  <= 1'b0;
      aw_addr_q  <= '0;
      aw_len_q   <= '0;
      aw_fixed_q <= 1'b0;
      aw_prio_q  <= 1'b0;
    end else begin
      state_q <= state_d;
      cnt_q   <= cnt_d;
      if (start) begin
        aw_pend_q  <= 1'b1;
        aw_addr_q  <= addr_i;
        aw_len_q   <= len;
        aw_fixed_q <= fixed_i;
        aw_prio_q  <= prio_i;
      end else if (m_axi_awready) begin
        aw_pend_q <= 1'b0;
      end
    end
  end

  assign m_axi_awid    = '0;
  assign m_axi_awaddr  = {aw_addr_q, 2'b00};
  assign m_axi_awlen   = 8'(aw_len_q - 4'd1);
  assign m_axi_awsize  = 3'b010;
  assign m_axi_awburst = aw_fixed_q ? BurstFixed : BurstIncr;
  assign m_axi_awlock  = 1'b0;
  assign m_axi_awcache = 4'b0000;  // device, non-bufferable: a fixed destination may be a FIFO
  assign m_axi_awprot  = 3'b000;
  assign m_axi_awqos   = {4{aw_prio_q}};
  assign m_axi_awvalid = aw_pend_q;

  // Beats before the AXI burst's last go back at once; the last one waits for the response.
  assign ack_o = (w_hs && !m_axi_wlast) || (m_axi_bready && m_axi_bvalid && !m_axi_bresp[1]);
  assign err_o = m_axi_bready && m_axi_bvalid && m_axi_bresp[1];

  // Clock-gating hint: without a request no burst starts (WVALID low, the AW registers hold) and
  // a cleared aw_pend_q stays cleared.
  assign idle_o = (state_q == WrIdle) && !aw_pend_q && !req_i;

  logic unused;
  assign unused = ^{m_axi_bid, m_axi_bresp[0]};  // EXOKAY counts as OKAY

endmodule

`default_nettype wire
