// SPDX-License-Identifier: Apache-2.0
// DMA channel: state machine, request credits, FIFO bookkeeping, burst sizing and counters.
`default_nettype none

// One channel moves LEN bytes from SRC to DST through its share of the FIFO memory, then follows
// NEXT through a linked list of descriptors. It does not touch the bus itself: it offers the
// read and write engines a burst (eligible, length, word address), and the engines tell it when
// they take the offer and report every acknowledged beat, bus error and descriptor fetch back.
// Words are accounted when a burst is taken (issue counters, issue address, FIFO space reserved
// on the read side, FIFO words claimed on the write side), so an offer depends on no bus timing:
// it is computed in two registered stages (the limits, then the burst) from the channel's
// registers, and the engines see it as flip-flops. In the cycle after a take the side offers
// nothing; its next offer follows from the taken one. Other changes (beats of the other side,
// a new credit) only make a burst more possible and reach the offer one cycle later, so an
// offer is never wrong, at most a cycle late. Bursts of two or more beats still follow back to
// back on one channel.
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
  input  wire logic              chk_gnt_i,      // result for this channel
  input  wire logic [3:0]        chk_code_i,
  input  wire logic              chk_active_i,   // a check of this channel is in the checker
  // Burst addresses (CHn_SRC / CHn_DST, word aligned once checked).
  input  wire logic [29:0]       src_w_i,
  input  wire logic [29:0]       dst_w_i,
  // Read engine.
  output logic                   rd_elig_o,      // a data read burst of rd_n_o words may start
  output logic                   rd_desc_o,      // a descriptor fetch is wanted
  output logic [3:0]             rd_n_o,
  output logic [29:0]            rd_addr_o,      // word address of that burst
  output logic                   rd_fixed_o,
  input  wire logic              rd_take_i,      // the read engine takes the offer now
  input  wire logic              rd_beat_i,      // data word read (pushed into the FIFO)
  input  wire logic              rd_desc_done_i, // last descriptor word read
  input  wire logic              rd_err_i,
  input  wire logic              rd_active_i,    // the read engine has a burst of this channel
  // Write engine.
  output logic                   wr_elig_o,
  output logic [3:0]             wr_n_o,
  output logic [29:0]            wr_addr_o,
  output logic                   wr_fixed_o,
  input  wire logic              wr_take_i,
  input  wire logic              wr_beat_i,      // data word written (popped from the FIFO)
  input  wire logic              wr_err_i,
  input  wire logic              wr_active_i,
  // FIFO pointers into this channel's segment.
  output logic [FAW-1:0]         fifo_wptr_o,
  output logic [FAW-1:0]         fifo_rptr_o,
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

  import dma_pkg::*;

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

  // ---- burst offers ----
  // Issue side, per direction: words not yet taken, word address of the next burst, words left
  // in the current block, and "this paced block is wholly taken" (no offer until the next
  // credit). free: FIFO words neither held nor being read; avail: words held and not yet taken
  // by a write burst; need: words of the granted destination block not yet taken by a read.
  logic [WLEN_W-1:0] rd_iss_q, rd_iss_d, wr_iss_q, wr_iss_d;
  logic [29:0]       rd_ia_q, rd_ia_d, wr_ia_q, wr_ia_d;
  logic [BLK_W-1:0]  rd_brem_q, rd_brem_d, wr_brem_q, wr_brem_d, need_q, need_d;
  logic              rd_bdone_q, rd_bdone_d, wr_bdone_q, wr_bdone_d;
  logic [FLW-1:0]    free_q, free_d, avail_q, avail_d;
  logic              dtk_q, dtk_d;
  // The offer registers (stage 2).
  logic [3:0]        rd_n_q, rd_n_d, wr_n_q, wr_n_d;
  logic              rd_ok_q, rd_ok_d, wr_ok_q, wr_ok_d;
  logic              rd_bend_q, rd_bend_d, wr_bend_q, wr_bend_d;
  logic              src_blk_end, dst_blk_end;

  logic src_paced, dst_paced, demand_only, use_sblk, use_dblk, run;

  assign src_paced   = src_req_en_i;
  assign dst_paced   = dst_req_en_i;
  assign demand_only = dst_paced & ~prefetch_i;
  assign use_sblk    = src_paced | (src_mode_i == AM_WRAP);
  assign use_dblk    = dst_paced | (dst_mode_i == AM_WRAP);
  assign run         = (state_q == S_RUN);

  // Limits are kept as 8-bit thermometer codes (bit k: the limit exceeds k words), so the
  // shortest limit is a bitwise AND and "the FIFO has room / holds the burst" one OR of ANDs.
  // Thermometer code of a count saturated at 8: one OR of the high bits, then each bit is a
  // function of the low three (no comparator per bit).
  function automatic logic [7:0] th8(logic hi, logic [2:0] lo);
    for (int k = 0; k < 8; k++) th8[k] = hi | (lo > 3'(k));
  endfunction

  function automatic logic [7:0] thw(logic [WLEN_W-1:0] v);
    thw = th8(|v[WLEN_W-1:3], v[2:0]);
  endfunction

  function automatic logic [7:0] thb(logic [BLK_W-1:0] v);
    thb = th8(|v[BLK_W-1:3], v[2:0]);
  endfunction

  function automatic logic [7:0] thf(logic [FLW-1:0] v);
    thf = th8(|v[FLW-1:3], v[2:0]);
  endfunction

  // Words in a thermometer code (0..8).
  function automatic logic [3:0] t2n(logic [7:0] t);
    t2n[3] = t[7];
    t2n[2] = t[3] & ~t[7];
    t2n[1] = (t[1] & ~t[3]) | (t[5] & ~t[7]);
    t2n[0] = (t[0] & ~t[1]) | (t[2] & ~t[3]) | (t[4] & ~t[5]) | (t[6] & ~t[7]);
  endfunction

  // Stage 1, registered from the next-cycle counters: each limit on a burst. Each is computed
  // for "no burst taken" and "the offered burst taken" from registers, and the take picks one:
  // the take (bus acknowledge, arbiter) is one multiplexer away from these flip-flops.
  logic [7:0]        s1_rd_left, s1_rd_blk, s1_allow, s1_wr_left, s1_wr_blk;
  logic              s1_rd_blk8, s1_wr_blk8, s1_run, s2_run;
  logic [7:0]        s1_rd_left_d, s1_rd_blk_d, s1_allow_d, s1_wr_left_d, s1_wr_blk_d;
  logic              s1_rd_blk8_d, s1_wr_blk8_d;
  logic [WLEN_W-1:0] rd_iss_t, wr_iss_t;
  logic [BLK_W-1:0]  rd_brem_t, wr_brem_t, need_t;

  assign rd_iss_t   = rd_iss_q - WLEN_W'(rd_n_q);
  assign wr_iss_t   = wr_iss_q - WLEN_W'(wr_n_q);
  assign rd_brem_t  = rd_bend_q ? block_i : rd_brem_q - BLK_W'(rd_n_q);
  assign wr_brem_t  = wr_bend_q ? block_i : wr_brem_q - BLK_W'(wr_n_q);
  assign need_t     = need_q - BLK_W'(rd_n_q);

  always_comb begin
    if (load_run) begin
      s1_rd_left_d = thw(len_w_i);
      s1_rd_blk_d  = thb(block_i);
      s1_rd_blk8_d = (block_i <= BLK_W'(8));
      s1_wr_left_d = thw(len_w_i);
      s1_wr_blk_d  = thb(block_i);
      s1_wr_blk8_d = (block_i <= BLK_W'(8));
    end else begin
      s1_rd_left_d = rd_take_i ? thw(rd_iss_t) : thw(rd_iss_q);
      s1_rd_blk_d  = rd_take_i ? thb(rd_brem_t) : thb(rd_brem_q);
      s1_rd_blk8_d = rd_take_i ? (rd_brem_t <= BLK_W'(8)) : (rd_brem_q <= BLK_W'(8));
      s1_wr_left_d = wr_take_i ? thw(wr_iss_t) : thw(wr_iss_q);
      s1_wr_blk_d  = wr_take_i ? thb(wr_brem_t) : thb(wr_brem_q);
      s1_wr_blk8_d = wr_take_i ? (wr_brem_t <= BLK_W'(8)) : (wr_brem_q <= BLK_W'(8));
    end
    if (!use_sblk) begin
      s1_rd_blk_d  = 8'hFF;
      s1_rd_blk8_d = 1'b0;
    end
    if (!use_dblk) begin
      s1_wr_blk_d  = 8'hFF;
      s1_wr_blk8_d = 1'b0;
    end
    // need restarts at a destination block's end, when no read burst can be taken (need is 0).
    if (!demand_only) begin
      s1_allow_d = 8'hFF;
    end else if (load_run || (dcred_q && dst_blk_end)) begin
      s1_allow_d = thb(block_i);
    end else begin
      s1_allow_d = rd_take_i ? thb(need_t) : thb(need_q);
    end
  end

  // Room and words next cycle, when this cycle takes no burst of that side (else the offer is
  // withdrawn anyway): straight from the counters and the other side's beat, so a word written
  // out now lets a read burst be offered next cycle.
  logic [7:0] room, hold, room_d, hold_d;
  assign room   = thf(free_q);
  assign hold   = thf(avail_q);
  assign room_d = wr_beat_i ? {room[6:0], 1'b1} : room;
  assign hold_d = rd_beat_i ? {hold[6:0], 1'b1} : hold;

  // Stage 2: the offer. A burst is as long as every limit allows; it is offered when it fits
  // in the FIFO (read) or the FIFO holds it (write), the channel runs and holds its credits
  // next cycle, and this cycle takes no burst of that side (the next offer then follows from
  // the taken one). bend: the burst ends its block. The offer is a register.
  logic [7:0] bw_th, rd_t, wr_t;
  logic       src_ok_d, dst_ok_d, run_d;
  assign bw_th    = thb(BLK_W'(bw));
  assign rd_t     = bw_th & s1_rd_left & s1_rd_blk & s1_allow;
  assign wr_t     = bw_th & s1_wr_left & s1_wr_blk;
  assign run_d    = (state_d == S_RUN);
  assign src_ok_d = !src_paced || (scred_d && !rd_bdone_d);
  assign dst_ok_d = !dst_paced || (dcred_d && !wr_bdone_d);

  always_comb begin
    rd_n_d    = t2n(rd_t);
    rd_ok_d   = rd_t[0] && !(|(rd_t & ~room_d)) && !rd_take_i && run_d && src_ok_d &&
                (!demand_only || dcred_d);
    rd_bend_d = s1_rd_blk8 && !(|(s1_rd_blk & ~rd_t));
    wr_n_d    = t2n(wr_t);
    wr_ok_d   = wr_t[0] && !(|(wr_t & ~hold_d)) && !wr_take_i && run_d && dst_ok_d;
    wr_bend_d = s1_wr_blk8 && !(|(s1_wr_blk & ~wr_t));
    if (!s1_run) begin
      rd_n_d    = '0;
      rd_bend_d = 1'b0;
      wr_n_d    = '0;
      wr_bend_d = 1'b0;
    end
  end

  assign rd_elig_o  = rd_ok_q;
  assign wr_elig_o  = wr_ok_q;
  assign rd_desc_o  = (state_q == S_DFETCH) && !dtk_q;
  assign rd_n_o     = rd_n_q;
  assign wr_n_o     = wr_n_q;
  assign rd_addr_o  = rd_ia_q;
  assign wr_addr_o  = wr_ia_q;
  assign rd_fixed_o = (src_mode_i == AM_FIXED);
  assign wr_fixed_o = (dst_mode_i == AM_FIXED);

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
          if (!rd_active_i && !wr_active_i && !chk_active_i) begin
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

  // Issue side: a taken burst moves the offer on by its length at once. Stage 1 registers
  // what these next-cycle values allow, from the cycle that loads a transfer on (constant
  // outside RUN, for the clock-gating hint).
  always_comb begin
    rd_iss_d   = rd_iss_q;
    wr_iss_d   = wr_iss_q;
    rd_ia_d    = rd_ia_q;
    wr_ia_d    = wr_ia_q;
    rd_brem_d  = rd_brem_q;
    wr_brem_d  = wr_brem_q;
    need_d     = (dcred_q && dst_blk_end) ? block_i : need_q;
    rd_bdone_d = rd_bdone_q && !(scred_q && src_blk_end);
    wr_bdone_d = wr_bdone_q && !(dcred_q && dst_blk_end);
    free_d     = free_q + FLW'(wr_beat_i);
    avail_d    = avail_q + FLW'(rd_beat_i);
    if (clear_all) begin
      rd_iss_d   = '0;
      wr_iss_d   = '0;
      rd_brem_d  = '0;
      wr_brem_d  = '0;
      need_d     = '0;
      rd_bdone_d = 1'b0;
      wr_bdone_d = 1'b0;
      free_d     = limit_eff;
      avail_d    = '0;
    end else if (load_run) begin
      rd_iss_d   = len_w_i;
      wr_iss_d   = len_w_i;
      rd_ia_d    = src_w_i;
      wr_ia_d    = dst_w_i;
      rd_brem_d  = block_i;
      wr_brem_d  = block_i;
      need_d     = block_i;
      rd_bdone_d = 1'b0;
      wr_bdone_d = 1'b0;
    end else begin
      if (rd_take_i) begin
        rd_iss_d   = rd_iss_t;
        rd_brem_d  = rd_brem_t;
        rd_bdone_d = src_paced && rd_bend_q;
        need_d     = need_t;
        free_d     = free_q + FLW'(wr_beat_i) - FLW'(rd_n_q);
        unique case (src_mode_i)
          AM_INC:  rd_ia_d = rd_ia_q + 30'(rd_n_q);
          AM_WRAP: rd_ia_d = rd_bend_q ? src_w_i : rd_ia_q + 30'(rd_n_q);
          default: ;
        endcase
      end
      if (wr_take_i) begin
        wr_iss_d   = wr_iss_t;
        wr_brem_d  = wr_brem_t;
        wr_bdone_d = dst_paced && wr_bend_q;
        avail_d    = avail_q + FLW'(rd_beat_i) - FLW'(wr_n_q);
        unique case (dst_mode_i)
          AM_INC:  wr_ia_d = wr_ia_q + 30'(wr_n_q);
          AM_WRAP: wr_ia_d = wr_bend_q ? dst_w_i : wr_ia_q + 30'(wr_n_q);
          default: ;
        endcase
      end
    end
    dtk_d = (state_q == S_DFETCH) && (dtk_q || rd_take_i);
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
      rd_iss_q   <= '0;
      wr_iss_q   <= '0;
      rd_ia_q    <= '0;
      wr_ia_q    <= '0;
      rd_brem_q  <= '0;
      wr_brem_q  <= '0;
      need_q     <= '0;
      rd_bdone_q <= 1'b0;
      wr_bdone_q <= 1'b0;
      free_q     <= '0;
      avail_q    <= '0;
      dtk_q      <= 1'b0;
      s1_run     <= 1'b0;
      s2_run     <= 1'b0;
      s1_rd_left <= '0;
      s1_rd_blk  <= '0;
      s1_rd_blk8 <= 1'b0;
      s1_allow   <= '0;
      s1_wr_left <= '0;
      s1_wr_blk  <= '0;
      s1_wr_blk8 <= 1'b0;
      rd_n_q     <= '0;
      rd_ok_q    <= 1'b0;
      rd_bend_q  <= 1'b0;
      wr_n_q     <= '0;
      wr_ok_q    <= 1'b0;
      wr_bend_q  <= 1'b0;
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
      rd_iss_q   <= rd_iss_d;
      wr_iss_q   <= wr_iss_d;
      rd_ia_q    <= rd_ia_d;
      wr_ia_q    <= wr_ia_d;
      rd_brem_q  <= rd_brem_d;
      wr_brem_q  <= wr_brem_d;
      need_q     <= need_d;
      rd_bdone_q <= rd_bdone_d;
      wr_bdone_q <= wr_bdone_d;
      free_q     <= free_d;
      avail_q    <= avail_d;
      dtk_q      <= dtk_d;
      s1_run     <= run || load_run;
      s2_run     <= s1_run;
      if (run || load_run) begin
        s1_rd_left <= s1_rd_left_d;
        s1_rd_blk  <= s1_rd_blk_d;
        s1_rd_blk8 <= s1_rd_blk8_d;
        s1_allow   <= s1_allow_d;
        s1_wr_left <= s1_wr_left_d;
        s1_wr_blk  <= s1_wr_blk_d;
        s1_wr_blk8 <= s1_wr_blk8_d;
      end else begin
        s1_rd_left <= '0;
        s1_rd_blk  <= '0;
        s1_rd_blk8 <= 1'b0;
        s1_allow   <= '0;
        s1_wr_left <= '0;
        s1_wr_blk  <= '0;
        s1_wr_blk8 <= 1'b0;
      end
      rd_n_q     <= rd_n_d;
      rd_ok_q    <= rd_ok_d;
      rd_bend_q  <= rd_bend_d;
      wr_n_q     <= wr_n_d;
      wr_ok_q    <= wr_ok_d;
      wr_bend_q  <= wr_bend_d;
    end
  end

  assign fifo_wptr_o  = wptr_q;
  assign fifo_rptr_o  = rptr_q;
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
  // does not rely on the engines' or the FSM's invariants (credits are 0 outside RUN). The offer
  // stages are constant two cycles after RUN; takes need an offer.
  assign idle_o = (state_q == S_IDLE) && !start_i && !rd_beat_i && !wr_beat_i &&
                  !scred_q && !dcred_q && !s1_run && !s2_run &&
                  !dtk_q;

endmodule

`default_nettype wire
