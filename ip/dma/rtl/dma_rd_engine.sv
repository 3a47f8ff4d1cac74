// SPDX-License-Identifier: Apache-2.0
// DMA read engine: picks a channel, runs one read burst, fills its FIFO or loads its descriptor.
`default_nettype none

// When idle, or in the cycle of the last beat of its burst, the engine lets the arbiter pick among
// channels that can take a data burst or want a descriptor, and registers the burst (channel,
// length, start address), so bursts can follow back to back. One beat per acknowledge; data
// beats go into the channel's FIFO segment, descriptor beats into its SRC/DST/LEN/NEXT registers.
// A bus error ends the burst at once and is reported to the channel; the engine is free again
// in the next cycle, so other channels keep running.
module dma_rd_engine #(
  parameter int unsigned NumCh     = 4,
  parameter int unsigned FifoDepth = 32,
  localparam int unsigned CW  = (NumCh > 1) ? $clog2(NumCh) : 1,
  localparam int unsigned FAW = $clog2(FifoDepth),
  localparam int unsigned LEN_W      = dma_pkg::LEN_W,
  localparam int unsigned WLEN_W     = dma_pkg::WLEN_W,
  localparam int unsigned BLK_W      = dma_pkg::BLK_W,
  localparam int unsigned DESC_WORDS = dma_pkg::DESC_WORDS
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,
  // Channels (flattened, channel c at [c*W +: W]).
  input  wire logic [NumCh-1:0]        elig_i,
  input  wire logic [NumCh-1:0]        desc_i,
  input  wire logic [NumCh*4-1:0]      n_i,
  input  wire logic [NumCh*2-1:0]      prio_i,
  input  wire logic [NumCh-1:0]        bus_prio_i,
  input  wire logic [NumCh*2-1:0]      mode_i,
  input  wire logic [NumCh*32-1:0]     base_i,
  input  wire logic [NumCh*32-1:0]     next_i,
  input  wire logic [NumCh*LEN_W-1:0]  len_i,
  input  wire logic [NumCh*WLEN_W-1:0] left_i,
  input  wire logic [NumCh*BLK_W-1:0]  blk_off_i,
  input  wire logic [NumCh*FAW-1:0]    wptr_i,
  output logic [NumCh-1:0]             beat_o,
  output logic [NumCh-1:0]             desc_done_o,
  output logic [NumCh-1:0]             err_o,
  output logic [NumCh-1:0]             active_o,
  output logic [NumCh*DESC_WORDS-1:0]  desc_we_o,
  // FIFO write port.
  output logic                         fifo_we_o,
  output logic [CW+FAW-1:0]            fifo_waddr_o,
  // Bus (bus-neutral: req held for the whole burst; more = another beat follows).
  output logic                         req_o,
  output logic [29:0]                  addr_o,
  output logic                         burst_o,
  output logic                         more_o,
  output logic [3:0]                   beats_o,     // beats left in the burst, this one included
  output logic                         fixed_o,
  output logic                         prio_o,
  input  wire logic                    ack_i,
  input  wire logic                    err_i,
  output logic                         idle_o       // no burst and none to take: nothing changes
);

  localparam logic [1:0] AM_INC   = dma_pkg::AM_INC;
  localparam logic [1:0] AM_FIXED = dma_pkg::AM_FIXED;
  localparam logic [1:0] AM_WRAP  = dma_pkg::AM_WRAP;

  typedef enum logic { R_IDLE = 1'b0, R_BURST = 1'b1 } rstate_e;

  rstate_e       state_q, state_d;
  logic [CW-1:0] ch_q, ch_d;
  logic          desc_q, desc_d;
  logic [3:0]    n_q, n_d;
  logic [3:0]    beat_q, beat_d;
  logic [29:0]   addr_q, addr_d;
  logic          fixed_q, fixed_d;

  logic          gnt_valid;
  logic [CW-1:0] gnt;
  logic          take;

  dma_arb #(.NumCh(NumCh)) u_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (elig_i | desc_i),
    .prio_i  (prio_i),
    .take_i  (take),
    .valid_o (gnt_valid),
    .gnt_o   (gnt)
  );

  // The granted channel's fields (constant part-selects: plain multiplexers in synthesis).
  logic [1:0]        g_mode;
  logic [WLEN_W-1:0] g_off, g_len, g_left;
  logic [BLK_W-1:0]  g_blk;
  logic [29:0]       g_base, g_next, g_addr;
  logic [3:0]        g_n;
  logic              g_desc;

  always_comb begin
    g_mode = '0;
    g_len  = '0;
    g_left = '0;
    g_blk  = '0;
    g_base = '0;
    g_next = '0;
    g_n    = '0;
    g_desc = 1'b0;
    for (int c = 0; c < NumCh; c++) begin
      if (gnt == CW'(c)) begin
        g_mode = mode_i[2*c +: 2];
        g_len  = len_i[LEN_W*c + 2 +: WLEN_W];
        g_left = left_i[WLEN_W*c +: WLEN_W];
        g_blk  = blk_off_i[BLK_W*c +: BLK_W];
        g_base = base_i[32*c + 2 +: 30];
        g_next = next_i[32*c + 2 +: 30];
        g_n    = n_i[4*c +: 4];
        g_desc = desc_i[c];
      end
    end
    unique case (g_mode)
      AM_INC:  g_off = g_len - g_left;
      AM_WRAP: g_off = WLEN_W'(g_blk);
      default: g_off = '0;
    endcase
    g_addr = g_desc ? g_next : g_base + 30'(g_off);
  end

  logic last_beat;
  assign last_beat = (beat_q == n_q - 4'd1);
  // A new burst is taken when idle or together with the last beat of the current one.
  logic free_now;
  assign free_now  = (state_q == R_IDLE) ||
                     ((state_q == R_BURST) && ack_i && !err_i && last_beat);
  assign take      = free_now && gnt_valid;

  always_comb begin
    state_d = state_q;
    ch_d    = ch_q;
    desc_d  = desc_q;
    n_d     = n_q;
    beat_d  = beat_q;
    addr_d  = addr_q;
    fixed_d = fixed_q;
    unique case (state_q)
      R_IDLE: ;
      R_BURST: begin
        if (err_i) begin
          state_d = R_IDLE;
        end else if (ack_i) begin
          beat_d = beat_q + 4'd1;
          if (!fixed_q) addr_d = addr_q + 30'd1;
          if (last_beat) state_d = R_IDLE;
        end
      end
      default: state_d = R_IDLE;
    endcase
    if (take) begin
      state_d = R_BURST;
      ch_d    = gnt;
      desc_d  = g_desc;
      n_d     = g_desc ? 4'(DESC_WORDS) : g_n;
      beat_d  = '0;
      addr_d  = g_addr;
      fixed_d = !g_desc && (g_mode == AM_FIXED);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= R_IDLE;
      ch_q    <= '0;
      desc_q  <= 1'b0;
      n_q     <= 4'd1;
      beat_q  <= '0;
      addr_q  <= '0;
      fixed_q <= 1'b0;
    end else begin
      state_q <= state_d;
      ch_q    <= ch_d;
      desc_q  <= desc_d;
      n_q     <= n_d;
      beat_q  <= beat_d;
      addr_q  <= addr_d;
      fixed_q <= fixed_d;
    end
  end

  logic in_burst, beat_ok;
  assign in_burst = (state_q == R_BURST);
  assign beat_ok  = in_burst && ack_i && !err_i;

  always_comb begin
    beat_o      = '0;
    desc_done_o = '0;
    err_o       = '0;
    active_o    = '0;
    desc_we_o   = '0;
    if (in_burst) begin
      active_o[ch_q] = 1'b1;
      err_o[ch_q]    = err_i;
      if (beat_ok) begin
        if (desc_q) begin
          desc_we_o[DESC_WORDS*ch_q + 32'(beat_q[1:0])] = 1'b1;
          desc_done_o[ch_q] = last_beat;
        end else begin
          beat_o[ch_q] = 1'b1;
        end
      end
    end
  end

  assign fifo_we_o    = beat_ok && !desc_q;
  logic [FAW-1:0] cur_wptr;
  always_comb begin
    cur_wptr = '0;
    for (int c = 0; c < NumCh; c++) begin
      if (ch_q == CW'(c)) cur_wptr = wptr_i[FAW*c +: FAW];
    end
  end
  assign fifo_waddr_o = {ch_q, cur_wptr};

  assign req_o   = in_burst;
  assign addr_o  = addr_q;
  assign burst_o = (n_q != 4'd1);
  assign more_o  = !last_beat;
  assign beats_o = n_q - beat_q;
  assign fixed_o = fixed_q;
  assign prio_o  = in_burst && bus_prio_i[ch_q];

  // Clock-gating hint: idle and no channel to grant, so no burst is taken (the arbiter's
  // round-robin state moves only with a take) and no beat, FIFO or descriptor write happens.
  assign idle_o = (state_q == R_IDLE) && !gnt_valid;

endmodule

`default_nettype wire
