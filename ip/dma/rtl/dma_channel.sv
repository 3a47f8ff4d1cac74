// SPDX-License-Identifier: Apache-2.0
// DMA channel: state machine, request credits, FIFO bookkeeping, burst sizing and counters.
`default_nettype none

// One channel moves LEN bytes from SRC to DST through its share of the FIFO memory, then follows
// NEXT through a linked list of descriptors. It does not touch the bus itself: it tells the read
// and write engines whether it can take a burst and how long that burst may be, and the engines
// report every acknowledged beat, bus error and descriptor fetch back to it. What it offers is
// computed from its next state (this cycle's beats included), because an engine decides in one
// cycle for a burst that starts in the next: so an engine can start a new burst right after the
// last beat of the previous one.
//
// States: IDLE -> (CHK -> RUN)* with DCHK -> DFETCH between descriptors -> IDLE (done), or
// -> STOP (error/abort: wait until no engine is in a burst of this channel) -> IDLE (error).
module dma_channel #(
  parameter int unsigned FifoDepth = 32,
  parameter int unsigned NumReq    = 4,
  localparam int unsigned FAW = $clog2(FifoDepth),
  localparam int unsigned FLW = FAW + 1,
  localparam int unsigned WLEN_W = dma_pkg::WLEN_W,
  localparam int unsigned BLK_W  = dma_pkg::BLK_W,
  localparam int unsigned LIM_W  = dma_pkg::LIM_W,
  localparam int unsigned CNT_W  = dma_pkg::CNT_W
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  // Configuration (register block; the registers ignore software writes while busy_o).
  input  wire logic [1:0]        src_mode_i,
  input  wire logic [1:0]        dst_mode_i,
  input  wire logic [1:0]        burst_i,
  input  wire logic              prefetch_i,
  input  wire logic              chain_i,
  input  wire logic              src_req_en_i,
  input  wire logic [2:0]        src_req_sel_i,
  input  wire logic              dst_req_en_i,
  input  wire logic [2:0]        dst_req_sel_i,
  input  wire logic [BLK_W-1:0]  block_i,
  input  wire logic [LIM_W-1:0]  fifo_limit_i,
  input  wire logic [WLEN_W-1:0] len_w_i,        // CHn_LEN in words
  input  wire logic              next_nz_i,      // CHn_NEXT != 0
  input  wire logic [NumReq-1:0] req_i,
  input  wire logic              start_i,
  input  wire logic              abort_i,
  // Shared setup checker.
  output logic                   chk_req_o,
  output logic                   chk_desc_o,     // check NEXT (descriptor) instead of SRC/DST/LEN
  input  wire logic              chk_gnt_i,
  input  wire logic [3:0]        chk_code_i,
  // Read engine.
  output logic                   rd_elig_o,      // a data read burst of rd_n_o words may start
  output logic                   rd_desc_o,      // a descriptor fetch is wanted
  output logic [3:0]             rd_n_o,
  output logic [WLEN_W-1:0]      rd_left_o,      // next-cycle values, for the burst address
  output logic [BLK_W-1:0]       rd_blk_off_o,
  input  wire logic              rd_beat_i,      // data word read (pushed into the FIFO)
  input  wire logic              rd_desc_done_i, // last descriptor word read
  input  wire logic              rd_err_i,
  input  wire logic              rd_active_i,    // the read engine has a burst of this channel
  // Write engine.
  output logic                   wr_elig_o,
  output logic [3:0]             wr_n_o,
  output logic [WLEN_W-1:0]      wr_left_o,
  output logic [BLK_W-1:0]       wr_blk_off_o,
  input  wire logic              wr_beat_i,      // data word written (popped from the FIFO)
  input  wire logic              wr_err_i,
  input  wire logic              wr_active_i,
  // FIFO pointers into this channel's segment.
  output logic [FAW-1:0]         fifo_wptr_o,
  output logic [FAW-1:0]         fifo_rptr_o,    // next-cycle read pointer
  output logic [FLW-1:0]         fifo_level_o,
  // Status, interrupts and counters.
  output logic                   busy_o,
  output logic                   done_o,         // one-cycle pulse: finished, now idle
  output logic                   err_o,          // one-cycle pulse: stopped, now idle
  output logic [3:0]             err_code_o,
  output logic [WLEN_W-1:0]      remain_o,       // words left to write, as the REMAIN register reads
  output logic                   src_cred_o,
  output logic                   dst_cred_o,
  output logic [CNT_W-1:0]       cnt_cycles_o,
  output logic [CNT_W-1:0]       cnt_wait_o,
  output logic [CNT_W-1:0]       cnt_rd_o,
  output logic [CNT_W-1:0]       cnt_wr_o,
  output logic                   idle_o          // no register of the channel changes at this edge
);

  localparam logic [1:0] AM_WRAP      = dma_pkg::AM_WRAP;
  localparam logic [3:0] ERR_NONE     = dma_pkg::ERR_NONE;
  localparam logic [3:0] ERR_RD_BUS   = dma_pkg::ERR_RD_BUS;
  localparam logic [3:0] ERR_WR_BUS   = dma_pkg::ERR_WR_BUS;
  localparam logic [3:0] ERR_DESC_BUS = dma_pkg::ERR_DESC_BUS;
  localparam logic [3:0] ERR_CFG      = dma_pkg::ERR_CFG;
  localparam logic [3:0] ERR_ABORT    = dma_pkg::ERR_ABORT;

  typedef enum logic [2:0] {
    S_IDLE   = 3'd0,
    S_CHK    = 3'd1,
    S_RUN    = 3'd2,
    S_DCHK   = 3'd3,
    S_DFETCH = 3'd4,
    S_STOP   = 3'd5
  } state_e;

  state_e              state_q, state_d;
  logic [3:0]          code_q, code_d;
  logic [WLEN_W-1:0]   rd_left_q, rd_left_d, wr_left_q, wr_left_d;
  logic [BLK_W-1:0]    sblk_off_q, sblk_off_d, dblk_off_q, dblk_off_d;
  logic                scred_q, scred_d, dcred_q, dcred_d;
  logic [FAW-1:0]      wptr_q, wptr_d, rptr_q, rptr_d;
  logic [FLW-1:0]      count_q, count_d;
  logic [CNT_W-1:0]    cyc_q, cyc_d, wait_q, wait_d, rdb_q, rdb_d, wrb_q, wrb_d;

  logic                clear_all, load_run;

  // ---- configuration checks that need no address arithmetic ----
  logic [3:0]     bw;          // words per burst
  logic [FLW-1:0] limit_eff;   // FIFO words this channel may fill
  logic           cfg_bad;
  logic [7:0]     req_pad;
  logic           src_line, dst_line;

  assign bw = dma_pkg::burst_words(burst_i);
  always_comb begin
    limit_eff = FLW'(FifoDepth);
    if (fifo_limit_i != '0 && 32'(fifo_limit_i) <= FifoDepth) begin
      limit_eff = FLW'(fifo_limit_i);
    end
  end

  assign cfg_bad = (bw == 4'd0) ||
                   (src_mode_i == 2'd3) || (dst_mode_i == 2'd3) ||
                   (src_req_en_i && 32'(src_req_sel_i) >= NumReq) ||
                   (dst_req_en_i && 32'(dst_req_sel_i) >= NumReq) ||
                   ((block_i == '0) && (src_req_en_i || dst_req_en_i ||
                                        src_mode_i == AM_WRAP || dst_mode_i == AM_WRAP)) ||
                   (32'(limit_eff) < 2 * 32'(bw));

  assign req_pad  = 8'(req_i);
  assign src_line = req_pad[src_req_sel_i];
  assign dst_line = req_pad[dst_req_sel_i];

  // ---- burst sizing ----
  function automatic logic [3:0] sat8(logic [WLEN_W-1:0] v);
    sat8 = (v > WLEN_W'(8)) ? 4'd8 : v[3:0];
  endfunction

  function automatic logic [3:0] min4(logic [3:0] a, logic [3:0] b);
    min4 = (a < b) ? a : b;
  endfunction

  logic            src_paced, dst_paced, demand_only;
  logic [BLK_W-1:0] sblk_rem, dblk_rem;
  logic [BLK_W:0]   allow;       // words of the granted destination block not yet read
  logic [3:0]       rd_n, wr_n;
  logic [FLW-1:0]   free_words;
  logic             use_sblk, use_dblk;

  assign src_paced   = src_req_en_i;
  assign dst_paced   = dst_req_en_i;
  assign demand_only = dst_paced & ~prefetch_i;
  assign use_sblk    = src_paced | (src_mode_i == AM_WRAP);
  assign use_dblk    = dst_paced | (dst_mode_i == AM_WRAP);
  assign sblk_rem    = block_i - sblk_off_d;
  assign dblk_rem    = block_i - dblk_off_d;
  assign free_words  = limit_eff - count_d;

  always_comb begin
    allow = '0;
    if (dcred_d && ({1'b0, dblk_rem} > (BLK_W+1)'(count_d))) begin
      allow = {1'b0, dblk_rem} - (BLK_W+1)'(count_d);
    end
  end

  always_comb begin
    rd_n = min4(bw, sat8(rd_left_d));
    if (use_sblk) rd_n = min4(rd_n, sat8(WLEN_W'(sblk_rem)));
    if (demand_only) rd_n = min4(rd_n, sat8(WLEN_W'(allow)));
    wr_n = min4(bw, sat8(wr_left_d));
    if (use_dblk) wr_n = min4(wr_n, sat8(WLEN_W'(dblk_rem)));
  end

  assign rd_elig_o = (state_d == S_RUN) && (rd_left_d != '0) &&
                     (!src_paced || scred_d) && (!demand_only || allow != '0) &&
                     (free_words >= FLW'(rd_n));
  assign wr_elig_o = (state_d == S_RUN) && (wr_left_d != '0) &&
                     (!dst_paced || dcred_d) && (count_d >= FLW'(wr_n));
  assign rd_desc_o = (state_d == S_DFETCH);
  assign rd_n_o    = rd_n;
  assign wr_n_o    = wr_n;

  // ---- state machine ----
  logic stop_evt;
  logic [3:0] stop_code;
  logic active_state;

  assign active_state = (state_q == S_CHK) || (state_q == S_RUN) ||
                        (state_q == S_DCHK) || (state_q == S_DFETCH);

  always_comb begin
    stop_evt  = 1'b0;
    stop_code = ERR_NONE;
    if (active_state) begin
      if (rd_err_i) begin
        stop_evt  = 1'b1;
        stop_code = (state_q == S_DFETCH) ? ERR_DESC_BUS : ERR_RD_BUS;
      end else if (wr_err_i) begin
        stop_evt  = 1'b1;
        stop_code = ERR_WR_BUS;
      end else if (abort_i) begin
        stop_evt  = 1'b1;
        stop_code = ERR_ABORT;
      end
    end
  end

  always_comb begin
    state_d   = state_q;
    code_d    = code_q;
    clear_all = 1'b0;
    load_run  = 1'b0;
    done_o    = 1'b0;
    err_o     = 1'b0;
    if (stop_evt) begin
      state_d = S_STOP;
      code_d  = stop_code;
    end else begin
      unique case (state_q)
        S_IDLE: begin
          if (start_i) begin
            clear_all = 1'b1;
            if (cfg_bad) begin
              code_d  = ERR_CFG;
              state_d = S_STOP;
            end else begin
              code_d  = ERR_NONE;
              state_d = chain_i ? S_DCHK : S_CHK;
            end
          end
        end
        S_CHK: begin
          if (chk_gnt_i) begin
            if (chk_code_i != ERR_NONE) begin
              code_d  = chk_code_i;
              state_d = S_STOP;
            end else begin
              load_run = 1'b1;
              state_d  = S_RUN;
            end
          end
        end
        S_RUN: begin
          if (rd_left_q == '0 && wr_left_q == '0) begin
            if (next_nz_i) begin
              state_d = S_DCHK;
            end else begin
              state_d = S_IDLE;
              done_o  = 1'b1;
            end
          end
        end
        S_DCHK: begin
          if (chk_gnt_i) begin
            if (chk_code_i != ERR_NONE) begin
              code_d  = chk_code_i;
              state_d = S_STOP;
            end else begin
              state_d = S_DFETCH;
            end
          end
        end
        S_DFETCH: begin
          if (rd_desc_done_i) state_d = S_CHK;
        end
        S_STOP: begin
          if (!rd_active_i && !wr_active_i) begin
            state_d = S_IDLE;
            err_o   = 1'b1;
          end
        end
        default: state_d = S_IDLE;
      endcase
    end
  end

  assign chk_req_o  = (state_q == S_CHK) || (state_q == S_DCHK);
  assign chk_desc_o = (state_q == S_DCHK);

  // ---- transfer progress, credits, FIFO bookkeeping ----
  logic src_blk_end, dst_blk_end;
  assign src_blk_end = rd_beat_i && ((sblk_off_q == block_i - BLK_W'(1)) || (rd_left_q == WLEN_W'(1)));
  assign dst_blk_end = wr_beat_i && ((dblk_off_q == block_i - BLK_W'(1)) || (wr_left_q == WLEN_W'(1)));

  always_comb begin
    rd_left_d  = rd_left_q;
    wr_left_d  = wr_left_q;
    sblk_off_d = sblk_off_q;
    dblk_off_d = dblk_off_q;
    wptr_d     = wptr_q;
    rptr_d     = rptr_q;
    count_d    = count_q;
    if (clear_all) begin
      rd_left_d  = '0;
      wr_left_d  = '0;
      sblk_off_d = '0;
      dblk_off_d = '0;
      wptr_d     = '0;
      rptr_d     = '0;
      count_d    = '0;
    end else if (load_run) begin
      rd_left_d  = len_w_i;
      wr_left_d  = len_w_i;
      sblk_off_d = '0;
      dblk_off_d = '0;
    end else begin
      if (rd_beat_i) begin
        rd_left_d  = rd_left_q - WLEN_W'(1);
        sblk_off_d = (sblk_off_q == block_i - BLK_W'(1)) ? '0 : sblk_off_q + BLK_W'(1);
        wptr_d     = wptr_q + FAW'(1);
      end
      if (wr_beat_i) begin
        wr_left_d  = wr_left_q - WLEN_W'(1);
        dblk_off_d = (dblk_off_q == block_i - BLK_W'(1)) ? '0 : dblk_off_q + BLK_W'(1);
        rptr_d     = rptr_q + FAW'(1);
      end
      count_d = count_q + FLW'(rd_beat_i) - FLW'(wr_beat_i);
    end
  end

  // A request is sampled only while no block is granted; the credit of a block is dropped in
  // the cycle its last beat is acknowledged, so the line is sampled again one cycle later, after
  // the peripheral has updated it.
  always_comb begin
    scred_d = 1'b0;
    dcred_d = 1'b0;
    if (state_q == S_RUN && !stop_evt) begin
      scred_d = scred_q ? ~src_blk_end : (src_paced && rd_left_q != '0 && src_line);
      dcred_d = dcred_q ? ~dst_blk_end : (dst_paced && wr_left_q != '0 && dst_line);
    end
  end

  // ---- performance counters ----
  logic waiting;
  assign waiting = (state_q == S_RUN) &&
                   ((src_paced && !scred_q && rd_left_q != '0) ||
                    (dst_paced && !dcred_q && wr_left_q != '0));

  always_comb begin
    cyc_d  = cyc_q;
    wait_d = wait_q;
    rdb_d  = rdb_q;
    wrb_d  = wrb_q;
    if (clear_all) begin
      cyc_d  = '0;
      wait_d = '0;
      rdb_d  = '0;
      wrb_d  = '0;
    end else begin
      if (state_q != S_IDLE) cyc_d = cyc_q + CNT_W'(1);
      if (waiting) wait_d = wait_q + CNT_W'(1);
      if (rd_beat_i) rdb_d = rdb_q + CNT_W'(1);
      if (wr_beat_i) wrb_d = wrb_q + CNT_W'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= S_IDLE;
      code_q     <= ERR_NONE;
      rd_left_q  <= '0;
      wr_left_q  <= '0;
      sblk_off_q <= '0;
      dblk_off_q <= '0;
      scred_q    <= 1'b0;
      dcred_q    <= 1'b0;
      wptr_q     <= '0;
      rptr_q     <= '0;
      count_q    <= '0;
      cyc_q      <= '0;
      wait_q     <= '0;
      rdb_q      <= '0;
      wrb_q      <= '0;
    end else begin
      state_q    <= state_d;
      code_q     <= code_d;
      rd_left_q  <= rd_left_d;
      wr_left_q  <= wr_left_d;
      sblk_off_q <= sblk_off_d;
      dblk_off_q <= dblk_off_d;
      scred_q    <= scred_d;
      dcred_q    <= dcred_d;
      wptr_q     <= wptr_d;
      rptr_q     <= rptr_d;
      count_q    <= count_d;
      cyc_q      <= cyc_d;
      wait_q     <= wait_d;
      rdb_q      <= rdb_d;
      wrb_q      <= wrb_d;
    end
  end

  assign rd_left_o    = rd_left_d;
  assign wr_left_o    = wr_left_d;
  assign rd_blk_off_o = sblk_off_d;
  assign wr_blk_off_o = dblk_off_d;
  assign fifo_wptr_o  = wptr_q;
  assign fifo_rptr_o  = rptr_d;
  assign fifo_level_o = count_q;
  assign busy_o       = (state_q != S_IDLE) | start_i;
  assign err_code_o   = code_q;
  // The register, not wr_left_d: a read never depends on this cycle's write beat, so the register
  // read path has no combinational path from the bus ack (simulation schedules it acyclically).
  assign remain_o     = wr_left_q;
  assign src_cred_o   = scred_q;
  assign dst_cred_o   = dcred_q;
  assign cnt_cycles_o = cyc_q;
  assign cnt_wait_o   = wait_q;
  assign cnt_rd_o     = rdb_q;
  assign cnt_wr_o     = wrb_q;

  // Clock-gating hint (dma_periph idle_o). In IDLE without a start nothing moves: stop events
  // need an active state, the counters count only outside IDLE or on beats, and the request
  // lines are sampled only in RUN. The beat inputs and the credits are checked as well, so this
  // does not rely on the engines' or the FSM's invariants (credits are 0 outside RUN).
  assign idle_o = (state_q == S_IDLE) && !start_i && !rd_beat_i && !wr_beat_i &&
                  !scred_q && !dcred_q;

endmodule

`default_nettype wire
