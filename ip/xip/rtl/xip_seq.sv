// SPDX-License-Identifier: Apache-2.0
// XIP flash sequencer: SPI mode-0 read transactions that stream 32-bit words until stopped.
`default_nettype none

// One open read transaction at a time. start_i opens a stream at a word address: the command
// (skipped while the flash is in continuous-read mode), 24-bit address, mode bits (0xEB), dummy
// clocks, then data words for as long as nobody stops it. hold_i keeps the next word from
// completing (SCK stays low before that word's last unit), which is how the prefetch buffer and
// the keystream throttle the stream without closing it.
//
// Timing (N = SCK divider, at least 2): SCK is low for ceil(N/2) and high for floor(N/2) clocks.
// Both sides sample on the rising edge and change their outputs on the falling edge, so IO never
// changes in the clock edge that raises SCK. From start_i in ST_IDLE, CS# falls at the next edge
// and the first rising SCK edge comes ceil(N/2) clocks later; a word is delivered (word_valid_o)
// in the clock whose edge samples its last unit. A running stream is ended at once (start_i or
// stop_i in the data phase), CS# then stays high for N clocks. A start or stop that arrives while
// the command/address/mode/dummy phases go out is held until the data phase begins (the flash
// model rejects a read that ends before its data phase), and no word of the old stream is
// delivered after it.
//
// The master drives IO0 (all four lines for 0xEB) through the command, address, mode and dummy
// phases and releases the lines for the data phase.
module xip_seq (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,

  // Configuration, sampled when a transaction starts.
  input  wire logic [7:0]  div_i,       // SCK = clk / div_i; 0 and 1 act as 2
  input  wire logic [3:0]  dummy_i,     // dummy clocks (after the mode bits for 0xEB)
  input  wire logic [1:0]  cmd_i,       // 0: 0x03, 1: 0x0B, 2: 0x6B, 3: 0xEB
  input  wire logic        cont_i,      // 0xEB: send mode bits 0xA0 (continuous-read mode)

  // Stream control.
  input  wire logic        start_i,
  input  wire logic [21:0] start_word_i,  // flash word address (byte address / 4)
  input  wire logic        stop_i,
  input  wire logic        hold_i,

  output logic             word_valid_o,
  output logic [31:0]      word_o,        // byte at the lowest address in bits [7:0]
  output logic [21:0]      word_addr_o,
  output logic             busy_o,        // CS# low
  output logic             cont_o,        // the flash is in continuous-read mode

  // Flash pins.
  output logic             sck_o,
  output logic             cs_no,
  output logic [3:0]       io_o,
  output logic [3:0]       io_oe_o,
  input  wire logic [3:0]  io_i,

  output logic             idle_o         // no register would change at this edge
);

  localparam logic [1:0] SEL_READ = xip_pkg::XIP_CMD_READ;
  localparam logic [1:0] SEL_FAST = xip_pkg::XIP_CMD_FAST;
  localparam logic [1:0] SEL_QOUT = xip_pkg::XIP_CMD_QOUT;
  localparam logic [1:0] SEL_QIO  = xip_pkg::XIP_CMD_QIO;

  typedef enum logic [2:0] {
    ST_IDLE  = 3'd0,
    ST_CSH   = 3'd1,  // CS# high between transactions
    ST_CMD   = 3'd2,
    ST_ADDR  = 3'd3,
    ST_MODE  = 3'd4,
    ST_DUMMY = 3'd5,
    ST_DATA  = 3'd6
  } state_e;

  state_e      state_q, state_d;
  logic        sck_q, sck_d, cs_n_q, cs_n_d;
  logic [3:0]  io_q, io_d, oe_q, oe_d;
  logic [7:0]  div_q, div_d, cnt_q, cnt_d;
  logic [4:0]  unit_q, unit_d;      // unit (bit or nibble) of the phase now on the pins
  logic [1:0]  sel_q, sel_d;        // read command of this transaction
  logic [3:0]  dummy_q, dummy_d;
  logic        mcont_q, mcont_d;    // this transaction sends mode bits 0xA0
  logic        fcont_q, fcont_d;    // the flash is in continuous-read mode
  logic [21:0] addr_q, addr_d;      // word being received (start word in the preamble)
  logic [31:0] rx_q, rx_d;
  logic [4:0]  rxn_q, rxn_d;        // units of the current word received
  logic        pend_q, pend_d;      // start or stop waiting for the data phase
  logic        pgo_q, pgo_d;        // ... and it is a start
  logic [21:0] paddr_q, paddr_d;

  logic [7:0]  lo_len, hi_len;
  logic        quad_data;
  logic [4:0]  word_last, phase_last;
  logic [3:0]  ndummy;
  logic        rise, fall, blocked;
  logic [31:0] rx_word;
  state_e      after_addr, after_mode;

  assign lo_len    = (div_q + 8'd1) >> 1;
  assign hi_len    = div_q >> 1;
  assign quad_data = (sel_q == SEL_QOUT) || (sel_q == SEL_QIO);
  assign word_last = quad_data ? 5'd7 : 5'd31;
  assign ndummy    = (sel_q == SEL_READ) ? 4'd0 : dummy_q;
  assign after_mode = (ndummy == 4'd0) ? ST_DATA : ST_DUMMY;
  assign after_addr = (sel_q == SEL_QIO) ? ST_MODE : after_mode;

  always_comb begin
    unique case (state_q)
      ST_CMD:   phase_last = 5'd7;
      ST_ADDR:  phase_last = (sel_q == SEL_QIO) ? 5'd5 : 5'd23;
      ST_MODE:  phase_last = 5'd1;
      ST_DUMMY: phase_last = 5'(ndummy) - 5'd1;
      default:  phase_last = 5'd0;
    endcase
  end

  // The word completed by this rising edge, in memory byte order.
  assign rx_word = quad_data ? {rx_q[27:0], io_i} : {rx_q[30:0], io_i[1]};

  always_comb begin
    state_d      = state_q;
    sck_d        = sck_q;
    cs_n_d       = cs_n_q;
    div_d        = div_q;
    cnt_d        = cnt_q;
    unit_d       = unit_q;
    sel_d        = sel_q;
    dummy_d      = dummy_q;
    mcont_d      = mcont_q;
    fcont_d      = fcont_q;
    addr_d       = addr_q;
    rx_d         = rx_q;
    rxn_d        = rxn_q;
    pend_d       = pend_q;
    pgo_d        = pgo_q;
    paddr_d      = paddr_q;
    word_valid_o = 1'b0;
    rise         = 1'b0;
    fall         = 1'b0;
    blocked      = 1'b0;

    unique case (state_q)
      ST_IDLE, ST_CSH: begin
        // Latest request wins: a start (re)opens at its address, a stop cancels.
        if (start_i) begin
          pgo_d   = 1'b1;
          paddr_d = start_word_i;
        end else if (stop_i) begin
          pgo_d = 1'b0;
        end
        cnt_d = (state_q == ST_CSH) ? cnt_q + 8'd1 : '0;
        if (state_q == ST_IDLE || cnt_q + 8'd1 >= div_q) begin
          state_d = ST_IDLE;
          cnt_d   = '0;
          if (pgo_d) begin
            // Open a transaction: CS# low, first unit on the pins, SCK low for lo_len clocks.
            pgo_d   = 1'b0;
            cs_n_d  = 1'b0;
            unit_d  = '0;
            rxn_d   = '0;
            addr_d  = paddr_d;
            div_d   = (div_i < 8'd2) ? 8'd2 : div_i;
            mcont_d = cont_i & (cmd_i == SEL_QIO);
            if (fcont_q) begin
              // Still in continuous mode: an address-first 0xEB read with the dummy count the
              // flash was left with; its mode bits decide whether the flash stays there.
              state_d = ST_ADDR;
              sel_d   = SEL_QIO;
            end else begin
              state_d = ST_CMD;
              sel_d   = cmd_i;
              dummy_d = dummy_i;
            end
          end
        end
      end

      ST_CMD, ST_ADDR, ST_MODE, ST_DUMMY, ST_DATA: begin  // SCK runs
        if (state_q != ST_DATA && (start_i || stop_i)) begin
          pend_d  = 1'b1;
          pgo_d   = start_i;
          paddr_d = start_i ? start_word_i : paddr_q;
        end
        blocked = (state_q == ST_DATA) && (rxn_q == word_last) && hold_i;
        if (!sck_q) begin
          cnt_d = cnt_q + 8'd1;
          if (cnt_q + 8'd1 >= lo_len) begin
            cnt_d = cnt_q;  // held here while blocked
            if (!blocked) begin
              rise  = 1'b1;
              sck_d = 1'b1;
              cnt_d = '0;
            end
          end
        end else begin
          cnt_d = cnt_q + 8'd1;
          if (cnt_q + 8'd1 >= hi_len) begin
            fall  = 1'b1;
            sck_d = 1'b0;
            cnt_d = '0;
          end
        end

        if (rise && state_q == ST_DATA) begin
          rx_d  = rx_word;
          rxn_d = rxn_q + 5'd1;
          if (rxn_q == word_last) begin
            word_valid_o = 1'b1;
            rxn_d        = '0;
            addr_d       = addr_q + 22'd1;
          end
        end

        if (fall && state_q != ST_DATA) begin
          unit_d = unit_q + 5'd1;
          if (unit_q == phase_last) begin
            unit_d = '0;
            unique case (state_q)
              ST_CMD:  state_d = ST_ADDR;
              ST_ADDR: state_d = after_addr;
              ST_MODE: state_d = after_mode;
              default: state_d = ST_DATA;
            endcase
            if (state_q == ST_MODE) begin
              fcont_d = mcont_q;
            end
            if (state_d == ST_DATA && pend_d) begin
              // The data phase is reached: now the held start or stop can end this read
              // (pend_d: including one that arrives in this very cycle, which pend_q would
              // miss and the data phase would then ignore).
              pend_d  = 1'b0;
              state_d = ST_CSH;
              cs_n_d  = 1'b1;
              cnt_d   = '0;
            end
          end
        end

        if (state_q == ST_DATA && (start_i || stop_i)) begin
          state_d = ST_CSH;
          cs_n_d  = 1'b1;
          sck_d   = 1'b0;
          cnt_d   = '0;
          pgo_d   = start_i;
          paddr_d = start_word_i;
          word_valid_o = 1'b0;
        end
      end

      default: begin  // not reachable: close the bus
        state_d = ST_IDLE;
        cs_n_d  = 1'b1;
        sck_d   = 1'b0;
        pend_d  = 1'b0;
        pgo_d   = 1'b0;
      end
    endcase
  end

  // Pins for the next state: IO follows the unit on the bus and so changes only when SCK falls
  // or a transaction opens.
  logic [7:0]  cmd_byte, mode_byte;
  logic [23:0] addr_byte;

  always_comb begin
    unique case (sel_d)
      SEL_READ: cmd_byte = 8'h03;
      SEL_FAST: cmd_byte = 8'h0B;
      SEL_QOUT: cmd_byte = 8'h6B;
      default:  cmd_byte = 8'hEB;
    endcase
    mode_byte = mcont_d ? 8'hA0 : 8'hFF;
    addr_byte = {addr_d, 2'b00};
    io_d      = 4'b0000;
    oe_d      = 4'b0000;
    unique case (state_d)
      ST_CMD: begin
        io_d[0] = cmd_byte[3'(5'd7 - unit_d)];
        oe_d    = 4'b0001;
      end
      ST_ADDR: begin
        if (sel_d == SEL_QIO) begin
          io_d = addr_byte[5'd23 - 5'd4 * unit_d -: 4];
          oe_d = 4'b1111;
        end else begin
          io_d[0] = addr_byte[5'd23 - unit_d];
          oe_d    = 4'b0001;
        end
      end
      ST_MODE: begin
        io_d = (unit_d == 5'd0) ? mode_byte[7:4] : mode_byte[3:0];
        oe_d = 4'b1111;
      end
      ST_DUMMY: begin
        oe_d = (sel_d == SEL_QIO) ? 4'b1111 : 4'b0001;
      end
      default: begin
      end
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= ST_IDLE;
      sck_q   <= 1'b0;
      cs_n_q  <= 1'b1;
      io_q    <= '0;
      oe_q    <= '0;
      div_q   <= 8'd2;
      cnt_q   <= '0;
      unit_q  <= '0;
      sel_q   <= SEL_QIO;
      dummy_q <= '0;
      mcont_q <= 1'b0;
      fcont_q <= 1'b0;
      addr_q  <= '0;
      rx_q    <= '0;
      rxn_q   <= '0;
      pend_q  <= 1'b0;
      pgo_q   <= 1'b0;
      paddr_q <= '0;
    end else begin
      state_q <= state_d;
      sck_q   <= sck_d;
      cs_n_q  <= cs_n_d;
      io_q    <= io_d;
      oe_q    <= oe_d;
      div_q   <= div_d;
      cnt_q   <= cnt_d;
      unit_q  <= unit_d;
      sel_q   <= sel_d;
      dummy_q <= dummy_d;
      mcont_q <= mcont_d;
      fcont_q <= fcont_d;
      addr_q  <= addr_d;
      rx_q    <= rx_d;
      rxn_q   <= rxn_d;
      pend_q  <= pend_d;
      pgo_q   <= pgo_d;
      paddr_q <= paddr_d;
    end
  end

  // Simulation clock gating: idle exactly when every next state equals the present one. Besides
  // ST_IDLE this holds for a paused stream (CS# low, SCK held low before a word's last unit while
  // hold_i), which waits for the reader; io_i reaches a register only on a rising SCK edge of the
  // data phase, so the flash pins are ignored at rest.
  assign idle_o = {state_d, sck_d, cs_n_d, io_d, oe_d, div_d, cnt_d, unit_d, sel_d, dummy_d, mcont_d,
                   fcont_d, addr_d, rx_d, rxn_d, pend_d, pgo_d, paddr_d}
               == {state_q, sck_q, cs_n_q, io_q, oe_q, div_q, cnt_q, unit_q, sel_q, dummy_q, mcont_q,
                   fcont_q, addr_q, rx_q, rxn_q, pend_q, pgo_q, paddr_q};

  assign word_o      = {rx_word[7:0], rx_word[15:8], rx_word[23:16], rx_word[31:24]};
  assign word_addr_o = addr_q;
  assign busy_o      = ~cs_n_q;
  assign cont_o      = fcont_q;
  assign sck_o       = sck_q;
  assign cs_no       = cs_n_q;
  assign io_o        = io_q;
  assign io_oe_o     = oe_q;

endmodule

`default_nettype wire
