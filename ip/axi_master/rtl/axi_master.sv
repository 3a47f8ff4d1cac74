// SPDX-License-Identifier: Apache-2.0
// AXI4 burst master for a bus-neutral read port and write port: one burst outstanding on each.
`default_nettype none

// The read and write ports are the DMA core's (ip/dma/rtl/dma_periph.sv): a request holds its
// word address, the beats it still wants, FIXED (constant address) and priority, and advances by
// one word per ack_o. Each request becomes one AXI burst (INCR, or FIXED for a constant-address
// side) of beats_i beats, split where an INCR burst would cross a 4 KB boundary: requests start
// wherever a transfer is, so the split is needed. AxSIZE is 32 bits, AxID 0, AxQOS 0xF for a
// priority request. The two halves run independently.
// Read: ARVALID comes from the request, address and length, which stay put until the first beat
// is acknowledged, so they are stable while ARVALID waits. Every R beat is one rd_ack_o; an
// SLVERR or DECERR beat is rd_err_o instead (the requester ends its request there), and the
// burst's remaining beats are drained and dropped. The beat count, not RLAST, ends a burst.
// Write: the address is registered when the burst starts (AWVALID from the next cycle) while W
// beats may already go: AXI lets a slave wait for WVALID before AWREADY, so W never waits for AW.
// Each W beat but the burst's last is acknowledged at once; the last one's acknowledge waits for
// the write response, so an SLVERR or DECERR there is wr_err_o for that beat.
// EXOKAY counts as OKAY. AMBA signal names (no _i/_o) so that tools and bus models recognise the
// interface.
module axi_master #(
  parameter int unsigned IdWidth = 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // Read port.
  input  wire logic               rd_req_i,
  input  wire logic [29:0]        rd_addr_i,
  input  wire logic [3:0]         rd_beats_i,
  input  wire logic               rd_fixed_i,
  input  wire logic               rd_prio_i,
  output logic      [31:0]        rd_data_o,
  output logic                    rd_ack_o,
  output logic                    rd_err_o,
  // Write port.
  input  wire logic               wr_req_i,
  input  wire logic [29:0]        wr_addr_i,
  input  wire logic [3:0]         wr_beats_i,
  input  wire logic               wr_fixed_i,
  input  wire logic               wr_prio_i,
  input  wire logic [31:0]        wr_data_i,
  output logic                    wr_ack_o,
  output logic                    wr_err_o,
  // AXI4 read address and data channels.
  output logic      [IdWidth-1:0] m_axi_arid,
  output logic      [31:0]        m_axi_araddr,
  output logic      [7:0]         m_axi_arlen,
  output logic      [2:0]         m_axi_arsize,
  output logic      [1:0]         m_axi_arburst,
  output logic                    m_axi_arlock,
  output logic      [3:0]         m_axi_arcache,
  output logic      [2:0]         m_axi_arprot,
  output logic      [3:0]         m_axi_arqos,
  output logic                    m_axi_arvalid,
  input  wire logic               m_axi_arready,
  input  wire logic [IdWidth-1:0] m_axi_rid,
  input  wire logic [31:0]        m_axi_rdata,
  input  wire logic [1:0]         m_axi_rresp,
  input  wire logic               m_axi_rlast,
  input  wire logic               m_axi_rvalid,
  output logic                    m_axi_rready,
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
  // No burst running, no address pending, none asked for: no register would change.
  output logic                    idle_o
);

  // ---- Read half ----
  typedef enum logic [1:0] {RdIdle, RdData, RdDrain} rd_state_e;

  rd_state_e  rd_q, rd_d;
  logic [3:0] rd_cnt_q, rd_cnt_d;  // beats of the AXI burst after the current one
  logic [3:0] rd_len;
  logic       rd_beat, rd_last, rd_bad;

  assign rd_len = axi_master_pkg::burst_len(rd_addr_i[9:0], rd_beats_i, rd_fixed_i);

  assign m_axi_arid = '0;
  assign {m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst, m_axi_arlock, m_axi_arcache,
          m_axi_arprot, m_axi_arqos} = axi_master_pkg::ax_fields(rd_addr_i, rd_len, rd_fixed_i,
                                                                 rd_prio_i);
  assign m_axi_arvalid = (rd_q == RdIdle) && rd_req_i;
  assign m_axi_rready  = (rd_q != RdIdle);

  assign rd_beat = (rd_q != RdIdle) && m_axi_rvalid;
  assign rd_last = (rd_cnt_q == 4'd0);
  assign rd_bad  = m_axi_rresp[1];  // SLVERR or DECERR

  always_comb begin
    rd_d     = rd_q;
    rd_cnt_d = rd_cnt_q;
    unique case (rd_q)
      RdIdle: begin
        if (m_axi_arvalid && m_axi_arready) begin
          rd_d     = RdData;
          rd_cnt_d = rd_len - 4'd1;
        end
      end
      RdData, RdDrain: begin
        if (rd_beat) begin
          rd_cnt_d = rd_cnt_q - 4'd1;
          if (rd_last) begin
            rd_d = RdIdle;
          end else if (rd_bad) begin
            rd_d = RdDrain;
          end
        end
      end
      default: rd_d = RdIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q     <= RdIdle;
      rd_cnt_q <= '0;
    end else begin
      rd_q     <= rd_d;
      rd_cnt_q <= rd_cnt_d;
    end
  end

  assign rd_data_o = m_axi_rdata;
  assign rd_ack_o  = (rd_q == RdData) && m_axi_rvalid && !rd_bad;
  assign rd_err_o  = (rd_q == RdData) && m_axi_rvalid && rd_bad;

  // ---- Write half ----
  typedef enum logic [1:0] {WrIdle, WrData, WrResp} wr_state_e;

  wr_state_e   wr_q, wr_d;
  logic [3:0]  wr_cnt_q, wr_cnt_d;  // W beats of the AXI burst after the current one
  logic        aw_pend_q;
  logic [29:0] aw_addr_q;
  logic [3:0]  aw_len_q;
  logic        aw_fixed_q, aw_prio_q;
  logic [3:0]  wr_len, wr_cnt_now;
  logic        wr_start, wr_one, w_hs, b_hs;

  assign wr_len     = axi_master_pkg::burst_len(wr_addr_i[9:0], wr_beats_i, wr_fixed_i);
  // A protocol-conforming slave answers B only after AW: the guard keeps a broken one from
  // starting a burst under a pending address.
  assign wr_start   = (wr_q == WrIdle) && wr_req_i && !aw_pend_q;
  assign wr_cnt_now = wr_start ? wr_len - 4'd1 : wr_cnt_q;

  assign m_axi_wvalid = wr_start || (wr_q == WrData);
  // WLAST of a starting burst (wr_len == 1) straight from the request, not through the split's
  // subtract and compare: it lies on the path from the requester's registers back to its ack.
  assign wr_one       = (wr_beats_i == 4'd1)
                     || (!wr_fixed_i && (&wr_addr_i[9:0]) && wr_beats_i != 4'd0);
  assign m_axi_wlast  = wr_start ? wr_one : (wr_cnt_q == 4'd0);
  assign m_axi_wdata  = wr_data_i;
  assign m_axi_wstrb  = 4'hF;
  assign w_hs         = m_axi_wvalid && m_axi_wready;
  assign m_axi_bready = (wr_q == WrResp);
  assign b_hs         = m_axi_bready && m_axi_bvalid;

  always_comb begin
    wr_d     = wr_q;
    wr_cnt_d = wr_cnt_q;
    unique case (wr_q)
      WrIdle, WrData: begin
        if (wr_start) begin
          wr_d     = WrData;
          wr_cnt_d = wr_cnt_now;
        end
        if (w_hs) begin
          if (m_axi_wlast) begin
            wr_d = WrResp;
          end else begin
            wr_d     = WrData;
            wr_cnt_d = wr_cnt_now - 4'd1;
          end
        end
      end
      WrResp: if (m_axi_bvalid) wr_d = WrIdle;
      default: wr_d = WrIdle;
    endcase
  end

  assign m_axi_awid = '0;
  assign {m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst, m_axi_awlock, m_axi_awcache,
          m_axi_awprot, m_axi_awqos} = axi_master_pkg::ax_fields(aw_addr_q, aw_len_q, aw_fixed_q,
                                                                 aw_prio_q);
  assign m_axi_awvalid = aw_pend_q;

  // Beats before the burst's last go back at once; the last one waits for the response.
  assign wr_ack_o = (w_hs && !m_axi_wlast) || (b_hs && !m_axi_bresp[1]);
  assign wr_err_o = b_hs && m_axi_bresp[1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_q       <= WrIdle;
      wr_cnt_q   <= '0;
      aw_pend_q  <= 1'b0;
      aw_addr_q  <= '0;
      aw_len_q   <= '0;
      aw_fixed_q <= 1'b0;
      aw_prio_q  <= 1'b0;
    end else begin
      wr_q     <= wr_d;
      wr_cnt_q <= wr_cnt_d;
      if (wr_start) begin
        aw_pend_q  <= 1'b1;
        aw_addr_q  <= wr_addr_i;
        aw_len_q   <= wr_len;
        aw_fixed_q <= wr_fixed_i;
        aw_prio_q  <= wr_prio_i;
      end else if (m_axi_awready) begin
        aw_pend_q <= 1'b0;
      end
    end
  end

  // Clock-gating hint: without a request ARVALID and WVALID stay low, so no burst starts, the AW
  // registers hold and a cleared aw_pend_q stays cleared.
  assign idle_o = (rd_q == RdIdle) && !rd_req_i && (wr_q == WrIdle) && !aw_pend_q && !wr_req_i;

  logic unused;
  assign unused = ^{m_axi_rid, m_axi_rlast, m_axi_rresp[0], m_axi_bid, m_axi_bresp[0]};

endmodule

`default_nettype wire
