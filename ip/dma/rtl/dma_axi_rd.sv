// SPDX-License-Identifier: Apache-2.0
// AXI4 read master for the DMA core's bus-neutral read port: one burst outstanding.
`default_nettype none

// A core burst becomes one AXI burst (INCR, or FIXED for a constant-address side) of beats_i
// beats, split where an INCR burst would cross a 4 KB boundary: the core's bursts are not aligned
// (they start wherever the transfer is), so the split is needed. ARVALID is driven from the
// core's registered request, address and length, which stay put until the first beat is
// acknowledged, so they are stable while ARVALID waits. Every R beat is one ack_o; an SLVERR or
// DECERR beat is err_o instead (the core ends the burst there), and the AXI burst's remaining
// beats are then drained and dropped. The beat count, not RLAST, ends a burst.
// AMBA signal names (no _i/_o) so that tools and bus models recognise the interface.
module dma_axi_rd #(
  parameter int unsigned IdWidth = 1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // Core read port.
  input  wire logic               req_i,
  input  wire logic [29:0]        addr_i,
  input  wire logic [3:0]         beats_i,
  input  wire logic               fixed_i,
  input  wire logic               prio_i,
  output logic      [31:0]        data_o,
  output logic                    ack_o,
  output logic                    err_o,
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
  output logic                    idle_o   // no burst and none asked for: nothing changes
);

  localparam logic [1:0] BurstFixed = 2'b00;
  localparam logic [1:0] BurstIncr  = 2'b01;

  typedef enum logic [1:0] {RdIdle, RdData, RdDrain} state_e;

  state_e     state_q, state_d;
  logic [3:0] cnt_q, cnt_d;  // beats of the AXI burst after the current one
  logic [3:0] len;
  logic [10:0] room;         // words to the next 4 KB boundary
  logic       beat, last, bad;

  assign room = 11'd1024 - {1'b0, addr_i[9:0]};
  assign len  = (!fixed_i && room < 11'(beats_i)) ? room[3:0] : beats_i;

  assign m_axi_arid    = '0;
  assign m_axi_araddr  = {addr_i, 2'b00};
  assign m_axi_arlen   = 8'(len - 4'd1);
  assign m_axi_arsize  = 3'b010;
  assign m_axi_arburst = fixed_i ? BurstFixed : BurstIncr;
  assign m_axi_arlock  = 1'b0;
  assign m_axi_arcache = 4'b0000;  // device, non-bufferable: a fixed source may be a FIFO register
  assign m_axi_arprot  = 3'b000;
  assign m_axi_arqos   = {4{prio_i}};
  assign m_axi_arvalid = (state_q == RdIdle) && req_i;
  assign m_axi_rready  = (state_q != RdIdle);

  assign beat = (state_q != RdIdle) && m_axi_rvalid;
  assign last = (cnt_q == 4'd0);
  assign bad  = m_axi_rresp[1];  // SLVERR or DECERR

  always_comb begin
    state_d = state_q;
    cnt_d   = cnt_q;
    unique case (state_q)
      RdIdle: begin
        if (m_axi_arvalid && m_axi_arready) begin
          state_d = RdData;
          cnt_d   = len - 4'd1;
        end
      end
      RdData, RdDrain: begin
        if (beat) begin
          cnt_d = cnt_q - 4'd1;
          if (last) begin
            state_d = RdIdle;
          end else if (bad) begin
            state_d = RdDrain;
          end
        end
      end
      default: state_d = RdIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= RdIdle;
      cnt_q   <= '0;
    end else begin
      state_q <= state_d;
      cnt_q   <= cnt_d;
    end
  end

  assign data_o = m_axi_rdata;
  assign ack_o  = (state_q == RdData) && m_axi_rvalid && !bad;
  assign err_o  = (state_q == RdData) && m_axi_rvalid && bad;
  // Clock-gating hint: without a request ARVALID stays low, so no burst starts.
  assign idle_o = (state_q == RdIdle) && !req_i;

  logic unused;
  assign unused = ^{m_axi_rid, m_axi_rlast, m_axi_rresp[0]};  // EXOKAY counts as OKAY

endmodule

`default_nettype wire
