// SPDX-License-Identifier: Apache-2.0
// DMA core: channels, shared setup checker, read and write engines and FIFO RAM, bus neutral.
`default_nettype none

// Configuration comes in flattened per channel (channel c at [c*W +: W]) from the register
// block; descriptor words go back to it through desc_we_o/desc_data_o. The two bus ports are
// neutral: req_o is held for a whole burst, more_o says another beat follows, beats_o how many
// are left (this one included; an AXI master takes AxLEN from it), fixed_o marks a
// constant-address burst, and one ack_i (or err_i) ends each beat.
module dma_core #(
  parameter int unsigned          NumCh     = 4,
  parameter int unsigned          FifoDepth = 32,
  parameter int unsigned          NumReq    = 4,
  parameter int unsigned          NumWin    = 1,
  parameter logic [NumWin*32-1:0] WinBase   = '0,
  parameter logic [NumWin*32-1:0] WinSize   = '0,
  localparam int unsigned FAW = $clog2(FifoDepth),
  localparam int unsigned FLW = FAW + 1,
  localparam int unsigned CW  = (NumCh > 1) ? $clog2(NumCh) : 1,
  localparam int unsigned LEN_W      = dma_pkg::LEN_W,
  localparam int unsigned WLEN_W     = dma_pkg::WLEN_W,
  localparam int unsigned BLK_W      = dma_pkg::BLK_W,
  localparam int unsigned LIM_W      = dma_pkg::LIM_W,
  localparam int unsigned CNT_W      = dma_pkg::CNT_W,
  localparam int unsigned DESC_WORDS = dma_pkg::DESC_WORDS
) (
  input  wire logic                        clk_i,
  input  wire logic                        rst_ni,
  // Per-channel configuration.
  input  wire logic [NumCh*2-1:0]          cfg_src_mode_i,
  input  wire logic [NumCh*2-1:0]          cfg_dst_mode_i,
  input  wire logic [NumCh*2-1:0]          cfg_burst_i,
  input  wire logic [NumCh-1:0]            cfg_prefetch_i,
  input  wire logic [NumCh-1:0]            cfg_chain_i,
  input  wire logic [NumCh*2-1:0]          cfg_prio_i,
  input  wire logic [NumCh-1:0]            cfg_bus_prio_i,
  input  wire logic [NumCh-1:0]            cfg_src_req_en_i,
  input  wire logic [NumCh*3-1:0]          cfg_src_req_sel_i,
  input  wire logic [NumCh-1:0]            cfg_dst_req_en_i,
  input  wire logic [NumCh*3-1:0]          cfg_dst_req_sel_i,
  input  wire logic [NumCh*BLK_W-1:0]      cfg_block_i,
  input  wire logic [NumCh*LIM_W-1:0]      cfg_fifo_limit_i,
  input  wire logic [NumCh*32-1:0]         cfg_src_i,
  input  wire logic [NumCh*32-1:0]         cfg_dst_i,
  input  wire logic [NumCh*LEN_W-1:0]      cfg_len_i,
  input  wire logic [NumCh*32-1:0]         cfg_next_i,
  // Commands.
  input  wire logic [NumCh-1:0]            start_i,
  input  wire logic [NumCh-1:0]            abort_i,
  input  wire logic                        clr_busy_cycles_i,
  // Descriptor loads: word w (0 SRC, 1 DST, 2 LEN, 3 NEXT) of channel c at [c*4 + w].
  output logic [NumCh*DESC_WORDS-1:0]      desc_we_o,
  output logic [31:0]                      desc_data_o,
  // Status, interrupts, counters.
  output logic [NumCh-1:0]                 busy_o,
  output logic [NumCh-1:0]                 done_o,
  output logic [NumCh-1:0]                 err_o,
  output logic [NumCh*4-1:0]               err_code_o,
  output logic [NumCh-1:0]                 src_cred_o,
  output logic [NumCh-1:0]                 dst_cred_o,
  output logic [NumCh*FLW-1:0]             fifo_level_o,
  output logic [NumCh*WLEN_W-1:0]          remain_o,
  output logic [NumCh*CNT_W-1:0]           cnt_cycles_o,
  output logic [NumCh*CNT_W-1:0]           cnt_wait_o,
  output logic [NumCh*CNT_W-1:0]           cnt_rd_o,
  output logic [NumCh*CNT_W-1:0]           cnt_wr_o,
  output logic [CNT_W-1:0]                 busy_cycles_o,
  // Peripheral request lines.
  input  wire logic [NumReq-1:0]           req_i,
  // Read port.
  output logic                             rd_req_o,
  output logic [29:0]                      rd_addr_o,
  output logic                             rd_burst_o,
  output logic                             rd_more_o,
  output logic [3:0]                       rd_beats_o,
  output logic                             rd_fixed_o,
  output logic                             rd_prio_o,
  input  wire logic [31:0]                 rd_data_i,
  input  wire logic                        rd_ack_i,
  input  wire logic                        rd_err_i,
  // Write port.
  output logic                             wr_req_o,
  output logic [29:0]                      wr_addr_o,
  output logic                             wr_burst_o,
  output logic                             wr_more_o,
  output logic [3:0]                       wr_beats_o,
  output logic                             wr_fixed_o,
  output logic                             wr_prio_o,
  output logic [31:0]                      wr_data_o,
  input  wire logic                        wr_ack_i,
  input  wire logic                        wr_err_i,
  // Clock-gating hint: no register here changes at this edge (dma_periph idle_o).
  output logic                             idle_o
);

  // Channel <-> engine wiring.
  logic [NumCh-1:0]        rd_elig, rd_desc, rd_beat, rd_desc_done, rd_err, rd_active;
  logic [NumCh-1:0]        wr_elig, wr_beat, wr_err, wr_active;
  logic [NumCh-1:0]        rd_take, wr_take, rd_fixed, wr_fixed, chk_active;
  logic [NumCh*4-1:0]      rd_n, wr_n;
  logic [NumCh*30-1:0]     rd_addr, wr_addr;
  logic [NumCh*FAW-1:0]    wptr, rptr;
  logic [NumCh-1:0]        chk_req, chk_desc, chk_gnt;
  logic [3:0]              chk_code;
  logic [NumCh-1:0]        ch_idle;
  logic                    rd_idle, wr_idle;

  for (genvar c = 0; c < NumCh; c++) begin : gen_ch
    dma_channel #(
      .FifoDepth (FifoDepth),
      .NumReq    (NumReq)
    ) u_ch (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .src_mode_i     (cfg_src_mode_i[2*c +: 2]),
      .dst_mode_i     (cfg_dst_mode_i[2*c +: 2]),
      .burst_i        (cfg_burst_i[2*c +: 2]),
      .prefetch_i     (cfg_prefetch_i[c]),
      .chain_i        (cfg_chain_i[c]),
      .src_req_en_i   (cfg_src_req_en_i[c]),
      .src_req_sel_i  (cfg_src_req_sel_i[3*c +: 3]),
      .dst_req_en_i   (cfg_dst_req_en_i[c]),
      .dst_req_sel_i  (cfg_dst_req_sel_i[3*c +: 3]),
      .block_i        (cfg_block_i[BLK_W*c +: BLK_W]),
      .fifo_limit_i   (cfg_fifo_limit_i[LIM_W*c +: LIM_W]),
      .len_w_i        (cfg_len_i[LEN_W*c + 2 +: WLEN_W]),
      .next_nz_i      (cfg_next_i[32*c +: 32] != 32'd0),
      .req_i          (req_i),
      .start_i        (start_i[c]),
      .abort_i        (abort_i[c]),
      .chk_req_o      (chk_req[c]),
      .chk_desc_o     (chk_desc[c]),
      .chk_gnt_i      (chk_gnt[c]),
      .chk_code_i     (chk_code),
      .chk_active_i   (chk_active[c]),
      .src_w_i        (cfg_src_i[32*c + 2 +: 30]),
      .dst_w_i        (cfg_dst_i[32*c + 2 +: 30]),
      .rd_elig_o      (rd_elig[c]),
      .rd_desc_o      (rd_desc[c]),
      .rd_n_o         (rd_n[4*c +: 4]),
      .rd_addr_o      (rd_addr[30*c +: 30]),
      .rd_fixed_o     (rd_fixed[c]),
      .rd_take_i      (rd_take[c]),
      .rd_beat_i      (rd_beat[c]),
      .rd_desc_done_i (rd_desc_done[c]),
      .rd_err_i       (rd_err[c]),
      .rd_active_i    (rd_active[c]),
      .wr_elig_o      (wr_elig[c]),
      .wr_n_o         (wr_n[4*c +: 4]),
      .wr_addr_o      (wr_addr[30*c +: 30]),
      .wr_fixed_o     (wr_fixed[c]),
      .wr_take_i      (wr_take[c]),
      .wr_beat_i      (wr_beat[c]),
      .wr_err_i       (wr_err[c]),
      .wr_active_i    (wr_active[c]),
      .fifo_wptr_o    (wptr[FAW*c +: FAW]),
      .fifo_rptr_o    (rptr[FAW*c +: FAW]),
      .fifo_level_o   (fifo_level_o[FLW*c +: FLW]),
      .busy_o         (busy_o[c]),
      .done_o         (done_o[c]),
      .err_o          (err_o[c]),
      .err_code_o     (err_code_o[4*c +: 4]),
      .src_cred_o     (src_cred_o[c]),
      .dst_cred_o     (dst_cred_o[c]),
      .cnt_cycles_o   (cnt_cycles_o[CNT_W*c +: CNT_W]),
      .cnt_wait_o     (cnt_wait_o[CNT_W*c +: CNT_W]),
      .cnt_rd_o       (cnt_rd_o[CNT_W*c +: CNT_W]),
      .remain_o       (remain_o[WLEN_W*c +: WLEN_W]),
      .cnt_wr_o       (cnt_wr_o[CNT_W*c +: CNT_W]),
      .idle_o         (ch_idle[c])
    );
  end

  // ---- setup checker ----
  // One check at a time, pipelined (dma_range_check): when the checker is free, the
  // lowest-numbered channel asking is captured; its result returns two cycles later.
  logic [CW-1:0] chk_ch, chk_ch_q;
  logic          chk_any, chk_busy_q, chk_start, chk_done;
  always_comb begin
    chk_ch  = '0;
    chk_any = 1'b0;
    for (int c = NumCh - 1; c >= 0; c--) begin
      if (chk_req[c]) begin
        chk_ch  = CW'(c);
        chk_any = 1'b1;
      end
    end
  end
  assign chk_start = chk_any && !chk_busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_busy_q <= 1'b0;
      chk_ch_q   <= '0;
    end else if (chk_start) begin
      chk_busy_q <= 1'b1;
      chk_ch_q   <= chk_ch;
    end else if (chk_done) begin
      chk_busy_q <= 1'b0;
    end
  end

  always_comb begin
    chk_gnt    = '0;
    chk_active = '0;
    chk_gnt[chk_ch_q]    = chk_done;
    chk_active[chk_ch_q] = chk_busy_q;
  end

  logic             k_desc;
  logic [31:0]      k_src, k_dst, k_next;
  logic [LEN_W-1:0] k_len;
  logic [1:0]       k_src_mode, k_dst_mode;
  logic [BLK_W-1:0] k_block;
  always_comb begin
    k_desc     = 1'b0;
    k_src      = '0;
    k_dst      = '0;
    k_next     = '0;
    k_len      = '0;
    k_src_mode = '0;
    k_dst_mode = '0;
    k_block    = '0;
    for (int c = 0; c < NumCh; c++) begin
      if (chk_ch == CW'(c)) begin
        k_desc     = chk_desc[c];
        k_src      = cfg_src_i[32*c +: 32];
        k_dst      = cfg_dst_i[32*c +: 32];
        k_next     = cfg_next_i[32*c +: 32];
        k_len      = cfg_len_i[LEN_W*c +: LEN_W];
        k_src_mode = cfg_src_mode_i[2*c +: 2];
        k_dst_mode = cfg_dst_mode_i[2*c +: 2];
        k_block    = cfg_block_i[BLK_W*c +: BLK_W];
      end
    end
  end

  dma_range_check #(
    .NumWin  (NumWin),
    .WinBase (WinBase),
    .WinSize (WinSize)
  ) u_check (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .start_i    (chk_start),
    .desc_i     (k_desc),
    .src_i      (k_src),
    .dst_i      (k_dst),
    .len_i      (k_len),
    .src_mode_i (k_src_mode),
    .dst_mode_i (k_dst_mode),
    .block_i    (k_block),
    .next_i     (k_next),
    .done_o     (chk_done),
    .code_o     (chk_code)
  );

  // ---- engines and FIFO memory ----
  logic                fifo_we;
  logic [CW+FAW-1:0]   fifo_waddr, fifo_raddr;

  dma_rd_engine #(
    .NumCh     (NumCh),
    .FifoDepth (FifoDepth)
  ) u_rd (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .elig_i       (rd_elig),
    .desc_i       (rd_desc),
    .n_i          (rd_n),
    .addr_i       (rd_addr),
    .fixed_i      (rd_fixed),
    .prio_i       (cfg_prio_i),
    .bus_prio_i   (cfg_bus_prio_i),
    .next_i       (cfg_next_i),
    .wptr_i       (wptr),
    .take_o       (rd_take),
    .beat_o       (rd_beat),
    .desc_done_o  (rd_desc_done),
    .err_o        (rd_err),
    .active_o     (rd_active),
    .desc_we_o    (desc_we_o),
    .fifo_we_o    (fifo_we),
    .fifo_waddr_o (fifo_waddr),
    .req_o        (rd_req_o),
    .addr_o       (rd_addr_o),
    .burst_o      (rd_burst_o),
    .more_o       (rd_more_o),
    .beats_o      (rd_beats_o),
    .fixed_o      (rd_fixed_o),
    .prio_o       (rd_prio_o),
    .ack_i        (rd_ack_i),
    .err_i        (rd_err_i),
    .idle_o       (rd_idle)
  );

  assign desc_data_o = rd_data_i;

  dma_wr_engine #(
    .NumCh     (NumCh),
    .FifoDepth (FifoDepth)
  ) u_wr (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .elig_i       (wr_elig),
    .n_i          (wr_n),
    .addr_i       (wr_addr),
    .fixed_i      (wr_fixed),
    .prio_i       (cfg_prio_i),
    .bus_prio_i   (cfg_bus_prio_i),
    .rptr_i       (rptr),
    .take_o       (wr_take),
    .beat_o       (wr_beat),
    .err_o        (wr_err),
    .active_o     (wr_active),
    .fifo_raddr_o (fifo_raddr),
    .req_o        (wr_req_o),
    .addr_o       (wr_addr_o),
    .burst_o      (wr_burst_o),
    .more_o       (wr_more_o),
    .beats_o      (wr_beats_o),
    .fixed_o      (wr_fixed_o),
    .prio_o       (wr_prio_o),
    .ack_i        (wr_ack_i),
    .err_i        (wr_err_i),
    .idle_o       (wr_idle)
  );

  dma_fifo_ram #(
    .Words (1 << (CW + FAW))
  ) u_fifo (
    .clk_i   (clk_i),
    .we_i    (fifo_we),
    .waddr_i (fifo_waddr),
    .wdata_i (rd_data_i),
    .raddr_i (fifo_raddr),
    .rdata_o (wr_data_o)
  );

  // ---- global busy-cycle counter ----
  logic [CNT_W-1:0] busy_cyc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_cyc_q <= '0;
    end else if (clr_busy_cycles_i) begin
      busy_cyc_q <= '0;
    end else if (|busy_o) begin
      busy_cyc_q <= busy_cyc_q + CNT_W'(1);
    end
  end
  assign busy_cycles_o = busy_cyc_q;

  // ---- clock-gating hint ----
  // Every channel and both engines at rest, and no busy-counter clear. Then busy_o is 0 (the
  // counter holds), no FIFO word is written (fifo_we needs a read burst), and the FIFO RAM's
  // registered read holds too: its address, {write engine's channel, that channel's next read
  // pointer}, is the one the last clock edge read (neither moves without a take, a beat or a
  // start; the gated clock runs during reset, so there was such an edge), and no word was
  // written in that cycle (a channel that took a read beat is not IDLE in the next one).
  assign idle_o = (&ch_idle) & rd_idle & wr_idle & ~chk_busy_q & ~clr_busy_cycles_i;

endmodule

`default_nettype wire
