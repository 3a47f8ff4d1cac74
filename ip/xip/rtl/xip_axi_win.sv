// SPDX-License-Identifier: Apache-2.0
// AXI4 read slave for the XIP flash window, on xip_periph's word request port (win_*).
`default_nettype none

// One read burst at a time (ARREADY while idle). Every beat becomes one word request, held until
// the core answers it; the core serves any address order, so bursts only differ in how the next
// address is formed (AMBA AXI4, A3.4.1):
//   INCR   aligned to AxSIZE, then + 2^AxSIZE per beat (1 to 256 beats);
//   WRAP   2, 4, 8 or 16 beats, wrapping at the (beats * 2^AxSIZE)-byte boundary;
//   FIXED  the same address every beat.
// WRAP starting past its boundary (a cache line refill, critical word first): before its first
// beat the words from the boundary up to the critical word are requested and dropped ("touch").
// The core's stream then starts at the boundary, so the critical word and the words that wrap
// round come from one flash transaction instead of two (a new one would start at the wrap).
// A word the core answers with ERR (integrity failure, fail-closed context) is an RRESP SLVERR
// beat; the burst goes on. A burst AXI does not allow (AxSIZE above 32 bits, a WRAP of another
// length or not aligned to AxSIZE, AxBURST 11) is answered with SLVERR on every beat and no
// flash read. R is registered: RVALID and RDATA do not depend on RREADY.
// Writes: AW, then W beats up to WLAST are taken and dropped, and B answers SLVERR.
// Only the low word-address bits reach the core, as on the Wishbone window: the interconnect
// decodes the window.
module xip_axi_win #(
  parameter int unsigned AW      = 22,  // word-address bits of the flash
  parameter int unsigned IdWidth = 4
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,

  input  wire logic [IdWidth-1:0] s_axi_arid,
  input  wire logic [AW+1:0]      s_axi_araddr,  // byte address in the flash
  input  wire logic [7:0]         s_axi_arlen,
  input  wire logic [2:0]         s_axi_arsize,
  input  wire logic [1:0]         s_axi_arburst,
  input  wire logic               s_axi_arvalid,
  output logic                    s_axi_arready,
  output logic      [IdWidth-1:0] s_axi_rid,
  output logic      [31:0]        s_axi_rdata,
  output logic      [1:0]         s_axi_rresp,
  output logic                    s_axi_rlast,
  output logic                    s_axi_rvalid,
  input  wire logic               s_axi_rready,

  input  wire logic [IdWidth-1:0] s_axi_awid,
  input  wire logic               s_axi_awvalid,
  output logic                    s_axi_awready,
  input  wire logic               s_axi_wlast,
  input  wire logic               s_axi_wvalid,
  output logic                    s_axi_wready,
  output logic      [IdWidth-1:0] s_axi_bid,
  output logic      [1:0]         s_axi_bresp,
  output logic                    s_axi_bvalid,
  input  wire logic               s_axi_bready,

  output logic                    win_req_o,
  output logic      [AW-1:0]      win_addr_o,
  input  wire logic               win_ack_i,
  input  wire logic               win_err_i,
  input  wire logic [31:0]        win_rdata_i,

  output logic                    idle_o         // no register would change at this edge
);

  localparam int unsigned BW = AW + 2;  // byte-address bits
  localparam logic [1:0] BURST_FIXED = 2'b00;
  localparam logic [1:0] BURST_INCR  = 2'b01;
  localparam logic [1:0] BURST_WRAP  = 2'b10;
  localparam logic [1:0] RESP_OKAY   = 2'b00;
  localparam logic [1:0] RESP_SLVERR = 2'b10;

  typedef enum logic [1:0] {RdIdle, RdTouch, RdBeats} rd_state_e;
  typedef enum logic [1:0] {WrAddr, WrData, WrResp} wr_state_e;

  rd_state_e              rd_q, rd_d;
  logic [IdWidth-1:0]     id_q, id_d;        // the burst's; rid_q the beat's in R
  logic [IdWidth-1:0]     rid_q, rid_d;
  logic [BW-1:0]          addr_q, addr_d;    // byte address of the next beat
  logic [AW-1:0]          touch_q, touch_d;  // next word to touch
  logic [7:0]             left_q, left_d;    // beats after the next one
  logic [2:0]             size_q, size_d;
  logic [1:0]             burst_q, burst_d;
  logic [5:0]             wmask_q, wmask_d;  // WRAP: container bytes - 1
  logic                   bad_q, bad_d;      // a burst AXI does not allow
  logic                   rvalid_q, rvalid_d, rlast_q, rlast_d;
  logic [31:0]            rdata_q, rdata_d;
  logic [1:0]             rresp_q, rresp_d;

  logic [BW-1:0] ar_addr, ar_lo, aligned, step, incr, next;
  logic [5:0]    ar_mask;
  logic          ar_wrap_len, ar_bad, slot, beat_done, ar_touch;

  // The burst as it arrives: its wrap container and whether AXI allows it.
  assign ar_addr     = s_axi_araddr;
  assign ar_mask     = 6'(((7'(s_axi_arlen[3:0]) + 7'd1) << s_axi_arsize[1:0]) - 7'd1);
  assign ar_lo       = ar_addr & ~BW'(ar_mask);
  assign ar_wrap_len = s_axi_arlen == 8'd1 || s_axi_arlen == 8'd3 || s_axi_arlen == 8'd7
                    || s_axi_arlen == 8'd15;
  assign ar_bad      = s_axi_arsize > 3'd2 || s_axi_arburst == 2'b11
                    || (s_axi_arburst == BURST_WRAP
                        && (!ar_wrap_len || (ar_addr & ((BW'(1) << s_axi_arsize[1:0]) - 1'b1)) != '0));
  assign ar_touch    = s_axi_arburst == BURST_WRAP && !ar_bad && ar_lo[BW-1:2] != ar_addr[BW-1:2];

  // The address after this beat.
  assign step    = BW'(1) << size_q[1:0];
  assign aligned = addr_q & ~(step - 1'b1);
  assign incr    = aligned + step;
  always_comb begin
    unique case (burst_q)
      BURST_FIXED: next = addr_q;
      BURST_WRAP:  next = (addr_q & ~BW'(wmask_q)) | (incr & BW'(wmask_q));
      default:     next = incr;
    endcase
  end

  // A beat may be produced when the R register is empty or being emptied.
  assign slot      = !rvalid_q || s_axi_rready;
  assign win_req_o = (rd_q == RdTouch) || (rd_q == RdBeats && slot && !bad_q);
  assign win_addr_o = rd_q == RdTouch ? touch_q : addr_q[BW-1:2];
  assign beat_done = rd_q == RdBeats && slot && (bad_q || win_ack_i || win_err_i);
  assign s_axi_arready = rd_q == RdIdle;

  always_comb begin
    rd_d     = rd_q;
    id_d     = id_q;
    addr_d   = addr_q;
    touch_d  = touch_q;
    left_d   = left_q;
    size_d   = size_q;
    burst_d  = burst_q;
    wmask_d  = wmask_q;
    bad_d    = bad_q;
    rvalid_d = rvalid_q && !s_axi_rready;
    rlast_d  = rlast_q;
    rid_d    = rid_q;
    rdata_d  = rdata_q;
    rresp_d  = rresp_q;
    unique case (rd_q)
      RdIdle: begin
        if (s_axi_arvalid) begin
          id_d    = s_axi_arid;
          addr_d  = ar_addr;
          touch_d = ar_lo[BW-1:2];
          left_d  = s_axi_arlen;
          size_d  = s_axi_arsize;
          burst_d = s_axi_arburst;
          wmask_d = ar_mask;
          bad_d   = ar_bad;
          rd_d    = ar_touch ? RdTouch : RdBeats;
        end
      end
      RdTouch: begin
        // An ERR here is the critical word's line too: its own beat will carry the SLVERR.
        if (win_ack_i || win_err_i) begin
          touch_d = touch_q + 1'b1;
          if (touch_d == addr_q[BW-1:2]) begin
            rd_d = RdBeats;
          end
        end
      end
      RdBeats: begin
        if (beat_done) begin
          rvalid_d = 1'b1;
          rlast_d  = left_q == '0;
          rid_d    = id_q;
          rdata_d  = (bad_q || win_err_i) ? '0 : win_rdata_i;
          rresp_d  = (bad_q || win_err_i) ? RESP_SLVERR : RESP_OKAY;
          addr_d   = next;
          left_d   = left_q - 1'b1;
          if (left_q == '0) begin
            rd_d = RdIdle;
          end
        end
      end
      default: rd_d = RdIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q     <= RdIdle;
      id_q     <= '0;
      addr_q   <= '0;
      touch_q  <= '0;
      left_q   <= '0;
      size_q   <= '0;
      burst_q  <= BURST_INCR;
      wmask_q  <= '0;
      bad_q    <= 1'b0;
      rvalid_q <= 1'b0;
      rlast_q  <= 1'b0;
      rid_q    <= '0;
      rdata_q  <= '0;
      rresp_q  <= RESP_OKAY;
    end else begin
      rd_q     <= rd_d;
      id_q     <= id_d;
      addr_q   <= addr_d;
      touch_q  <= touch_d;
      left_q   <= left_d;
      size_q   <= size_d;
      burst_q  <= burst_d;
      wmask_q  <= wmask_d;
      bad_q    <= bad_d;
      rvalid_q <= rvalid_d;
      rlast_q  <= rlast_d;
      rid_q    <= rid_d;
      rdata_q  <= rdata_d;
      rresp_q  <= rresp_d;
    end
  end

  assign s_axi_rid    = rid_q;
  assign s_axi_rvalid = rvalid_q;
  assign s_axi_rlast  = rlast_q;
  assign s_axi_rdata  = rdata_q;
  assign s_axi_rresp  = rresp_q;

  // Write channels: the window is read-only.
  wr_state_e          wr_q, wr_d;
  logic [IdWidth-1:0] bid_q, bid_d;

  assign s_axi_awready = wr_q == WrAddr;
  assign s_axi_wready  = wr_q == WrData;
  assign s_axi_bvalid  = wr_q == WrResp;
  assign s_axi_bid     = bid_q;
  assign s_axi_bresp   = RESP_SLVERR;

  always_comb begin
    wr_d  = wr_q;
    bid_d = bid_q;
    unique case (wr_q)
      WrAddr: begin
        if (s_axi_awvalid) begin
          bid_d = s_axi_awid;
          wr_d  = WrData;
        end
      end
      WrData: begin
        if (s_axi_wvalid && s_axi_wlast) begin
          wr_d = WrResp;
        end
      end
      WrResp: begin
        if (s_axi_bready) begin
          wr_d = WrAddr;
        end
      end
      default: wr_d = WrAddr;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_q  <= WrAddr;
      bid_q <= '0;
    end else begin
      wr_q  <= wr_d;
      bid_q <= bid_d;
    end
  end

  // Simulation clock gating: no burst in progress or offered, R empty (RVALID would fall with
  // RREADY), the write channels waiting for an address with no W beat offered.
  assign idle_o = rd_q == RdIdle && !s_axi_arvalid && !rvalid_q
               && wr_q == WrAddr && !s_axi_awvalid && !s_axi_wvalid;

  logic unused;
  assign unused = ^ar_lo[1:0];

endmodule

`default_nettype wire
