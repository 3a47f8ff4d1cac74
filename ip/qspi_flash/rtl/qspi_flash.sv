// SPDX-License-Identifier: Apache-2.0
// Behavioural QSPI NOR flash (128 Mbit, IS25WP128-like read commands) with protocol checks.
`default_nettype none

// Simulation only. SPI mode 0: the flash samples IO on the rising SCK edge and drives IO after
// the falling edge. Commands: 0x03 read, 0x0B fast read, 0x6B quad output fast read, 0xEB quad
// I/O fast read (mode bits 0xAx enter continuous-read mode: the next transaction starts with the
// address), 0x9F JEDEC ID (the three ID bytes, repeated). Reads stream on and wrap at the end of
// the array. Contents are erased (0xFF) at time 0 and loaded through the DPI back door or, in
// cocotb, through the mem_q handle (32-bit words, byte at the lowest address in bits [7:0]).
//
// Protocol rules checked on every transaction (a violation prints a message, sets err_o and, with
// FatalOnError, ends the simulation):
//   - the master drives IO0 (all four lines for 0xEB address/mode) through the command, address,
//     mode and dummy phases: lines not driven there mean a data phase without a command, or a
//     dummy phase shorter than the flash's;
//   - the master drives nothing in the data phase (bus contention, or a dummy phase longer than
//     the flash's);
//   - CS# rises only in the data phase (a transaction that ends in its command, address, mode or
//     dummy phase is malformed); an unknown command is an error.
// The dummy counts are parameters and can be changed at run time through the DPI back door
// (qspi_flash_set_dummy) or the dummy_fast/dummy_qio variables.
module qspi_flash #(
  parameter int unsigned SizeBytes    = 16 * 1024 * 1024,
  parameter int unsigned DummyFast    = 8,           // 0x0B and 0x6B
  parameter int unsigned DummyQio     = 4,           // 0xEB, after the two mode-bit clocks
  parameter logic [23:0] JedecId      = 24'h9D7018,  // manufacturer, type, capacity
  parameter bit          FatalOnError = 1'b1
) (
  input  wire logic       rst_ni,   // RESET# pin: leaves continuous-read mode
  input  wire logic       sck_i,
  input  wire logic       cs_ni,
  input  wire logic [3:0] io_i,     // what the master drives
  input  wire logic [3:0] io_oe_i,  // which lines the master drives
  output logic      [3:0] io_o,
  output logic      [3:0] io_oe_o,
  output logic            err_o     // sticky: a protocol error was seen
);

  localparam int unsigned WORDS = SizeBytes / 4;
  localparam int unsigned AW    = $clog2(SizeBytes);

  localparam logic [7:0] CMD_READ  = 8'h03;
  localparam logic [7:0] CMD_FAST  = 8'h0B;
  localparam logic [7:0] CMD_QOUT  = 8'h6B;
  localparam logic [7:0] CMD_QIO   = 8'hEB;
  localparam logic [7:0] CMD_RDID  = 8'h9F;

  typedef enum logic [2:0] {
    P_START  = 3'd0,  // no clock yet: command, or address if in continuous-read mode
    P_CMD    = 3'd1,
    P_ADDR   = 3'd2,
    P_MODE   = 3'd3,
    P_DUMMY  = 3'd4,
    P_DATA   = 3'd5,
    P_IGNORE = 3'd6   // after an error: ignore the rest of the transaction
  } phase_e;

  typedef enum logic [2:0] {
    E_NONE        = 3'd0,
    E_UNKNOWN_CMD = 3'd1,
    E_CONTENTION  = 3'd2,  // master drives in the data phase
    E_NO_CMD      = 3'd3,  // IO0 not driven in the command phase
    E_DUMMY_SHORT = 3'd4,  // IO released inside the dummy phase
    E_NOT_DRIVEN  = 3'd5   // IO not driven in the address or mode phase
  } perr_e;

  logic [31:0] mem_q [WORDS];
  int unsigned dummy_fast = DummyFast;
  int unsigned dummy_qio  = DummyQio;

  // The array is erased exactly once, before the first back-door write or in the first initial
  // evaluation, whichever comes first: a harness may load the image before Verilator's first
  // eval() (which runs the initial blocks) or after it. No declaration initializer on purpose:
  // those are applied in the first eval() too.
  localparam int unsigned ERASED = 32'hE7A5_ED01;
  int unsigned erased;

  function automatic void erase_once();
    if (erased != ERASED) begin
      for (int unsigned i = 0; i < WORDS; i++) begin
        mem_q[i] = '1;
      end
      erased = ERASED;
    end
  endfunction

  initial begin
    err_count = 0;
    erase_once();
  end

  // Transaction state, reset while CS# is high.
  phase_e      phase_q, phase_d;
  logic [7:0]  cnt_q, cnt_d;      // clocks in the current phase
  logic [7:0]  cmd_q, cmd_d;
  logic [23:0] addr_q, addr_d;
  logic [7:0]  mode_q, mode_d;
  logic        quad_q, quad_d;    // data phase on four lines
  logic [15:0] clocks_q;          // clocks in this transaction (saturating)
  logic        cont_q;            // continuous-read mode (survives CS#)
  logic        mode_done;         // the last mode-bit clock is being sampled
  logic [3:0]  need_oe;           // lines the master must drive in this clock
  int unsigned dummy_now;         // dummy clocks of the current command
  perr_e       perr;
  int unsigned err_count;

  // One clock of the protocol: next state and the rule checked in it.
  always_comb begin
    phase_d   = phase_q;
    cnt_d     = cnt_q + 8'd1;
    cmd_d     = cmd_q;
    addr_d    = addr_q;
    mode_d    = mode_q;
    quad_d    = quad_q;
    mode_done = 1'b0;
    need_oe   = 4'b0000;
    perr      = E_NONE;
    unique case (phase_q)
      P_START, P_CMD: begin
        if (phase_q == P_START && cont_q) begin
          // Continuous-read mode: this clock is the first address nibble of a 0xEB read.
          need_oe = 4'b1111;
          cmd_d   = CMD_QIO;
          addr_d  = {addr_q[19:0], io_i};
          phase_d = P_ADDR;
          cnt_d   = 8'd1;
        end else begin
          need_oe = 4'b0001;
          cmd_d   = {cmd_q[6:0], io_i[0]};
          phase_d = P_CMD;
          if (phase_q == P_START) begin
            cnt_d = 8'd1;
          end
          if (phase_q == P_CMD && cnt_q == 8'd7) begin
            cnt_d = 8'd0;
            unique case (cmd_d)
              CMD_READ, CMD_FAST, CMD_QOUT, CMD_QIO: phase_d = P_ADDR;
              CMD_RDID: begin
                phase_d = P_DATA;
                quad_d  = 1'b0;
              end
              default: begin
                phase_d = P_IGNORE;
                perr    = E_UNKNOWN_CMD;
              end
            endcase
          end
        end
      end
      P_ADDR: begin
        if (cmd_q == CMD_QIO) begin
          need_oe = 4'b1111;
          addr_d  = {addr_q[19:0], io_i};
        end else begin
          need_oe = 4'b0001;
          addr_d  = {addr_q[22:0], io_i[0]};
        end
        if (cnt_q == ((cmd_q == CMD_QIO) ? 8'd5 : 8'd23)) begin
          cnt_d  = 8'd0;
          quad_d = (cmd_q == CMD_QIO) || (cmd_q == CMD_QOUT);
          unique case (cmd_q)
            CMD_QIO:  phase_d = P_MODE;
            CMD_READ: phase_d = P_DATA;
            default:  phase_d = (dummy_fast == 0) ? P_DATA : P_DUMMY;
          endcase
        end
      end
      P_MODE: begin
        need_oe = 4'b1111;
        mode_d  = {mode_q[3:0], io_i};
        if (cnt_q == 8'd1) begin
          mode_done = 1'b1;
          cnt_d     = 8'd0;
          phase_d   = (dummy_qio == 0) ? P_DATA : P_DUMMY;
        end
      end
      P_DUMMY: begin
        need_oe = (cmd_q == CMD_QIO) ? 4'b1111 : 4'b0001;
        if (32'(cnt_q) + 1 == dummy_now) begin
          cnt_d   = 8'd0;
          phase_d = P_DATA;
        end
      end
      P_DATA: begin
        cnt_d = cnt_q;
        if (io_oe_i != 4'b0000) begin
          perr    = E_CONTENTION;
          phase_d = P_IGNORE;
        end
      end
      default: begin  // P_IGNORE
        cnt_d   = cnt_q;
        phase_d = P_IGNORE;
      end
    endcase
    if (perr == E_NONE && (io_oe_i & need_oe) != need_oe) begin
      phase_d = P_IGNORE;
      unique case (phase_q)
        P_START, P_CMD: perr = E_NO_CMD;
        P_DUMMY:        perr = E_DUMMY_SHORT;
        default:        perr = E_NOT_DRIVEN;
      endcase
    end
  end

  assign dummy_now = (cmd_q == CMD_QIO) ? dummy_qio : dummy_fast;

  function automatic string perr_text(perr_e code);
    unique case (code)
      E_UNKNOWN_CMD: return $sformatf("unknown command 0x%02x", cmd_d);
      E_CONTENTION:  return $sformatf({"master drives IO %04b in the data phase of command 0x%02x",
                                       " (bus contention; dummy count longer than the flash's %0d?)"},
                                      io_oe_i, cmd_q, dummy_now);
      E_NO_CMD:      return "IO0 not driven in the command phase (a data phase without a command?)";
      E_DUMMY_SHORT: return $sformatf({"IO released in dummy clock %0d of %0d of command 0x%02x",
                                       " (dummy count shorter than the flash's?)"},
                                      cnt_q + 8'd1, dummy_now, cmd_q);
      E_NOT_DRIVEN:  return $sformatf("IO %04b not driven in phase %s of command 0x%02x",
                                      need_oe & ~io_oe_i, phase_q.name(), cmd_q);
      default:       return "";
    endcase
  endfunction

  always_ff @(posedge sck_i or posedge cs_ni) begin
    if (cs_ni) begin
      if (clocks_q != 0 && phase_q != P_DATA && phase_q != P_IGNORE) begin
        $display("qspi_flash: protocol error: CS# rose in phase %s after %0d clocks (command 0x%02x): %s",
                 phase_q.name(), clocks_q, cmd_q, "a read must reach its data phase");
        err_count <= err_count + 1;
        if (FatalOnError) begin
          $fatal(1, "qspi_flash: stopping on a protocol error");
        end
      end
      phase_q  <= P_START;
      cnt_q    <= '0;
      cmd_q    <= '0;
      addr_q   <= '0;
      mode_q   <= '0;
      quad_q   <= 1'b0;
      clocks_q <= '0;
    end else begin
      if (perr != E_NONE) begin
        $display("qspi_flash: protocol error: %s", perr_text(perr));
        err_count <= err_count + 1;
        if (FatalOnError) begin
          $fatal(1, "qspi_flash: stopping on a protocol error");
        end
      end
      phase_q  <= phase_d;
      cnt_q    <= cnt_d;
      cmd_q    <= cmd_d;
      addr_q   <= addr_d;
      mode_q   <= mode_d;
      quad_q   <= quad_d;
      clocks_q <= (clocks_q == '1) ? clocks_q : clocks_q + 16'd1;
    end
  end

  assign err_o = err_count != 0;

  // Mode bits 0xAx keep the flash in continuous-read mode; anything else leaves it. (mode_done
  // only rises while CS# is low: the phase is reset while it is high.)
  always_ff @(posedge sck_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cont_q <= 1'b0;
    end else if (mode_done && perr == E_NONE) begin
      cont_q <= mode_d[7:4] == 4'hA;
    end
  end

  // Data out: one unit (bit or nibble) per falling edge, from the edge after the last clock
  // before the data phase.
  logic [26:0] opos_q;  // units driven so far
  logic [AW-1:0] obyte;
  logic [7:0]  odata;

  always_comb begin
    if (cmd_q == CMD_RDID) begin
      obyte = '0;
      unique case ((opos_q >> 3) % 3)
        27'd0:   odata = JedecId[23:16];
        27'd1:   odata = JedecId[15:8];
        default: odata = JedecId[7:0];
      endcase
    end else begin
      obyte = AW'(addr_q) + AW'(quad_q ? (opos_q >> 1) : (opos_q >> 3));
      odata = mem_q[obyte[AW-1:2]][8 * obyte[1:0] +: 8];
    end
  end

  always_ff @(negedge sck_i or posedge cs_ni) begin
    if (cs_ni) begin
      opos_q  <= '0;
      io_o    <= '0;
      io_oe_o <= '0;
    end else if (phase_q == P_DATA) begin
      opos_q <= opos_q + 27'd1;
      if (quad_q) begin
        io_o    <= opos_q[0] ? odata[3:0] : odata[7:4];
        io_oe_o <= 4'b1111;
      end else begin
        io_o    <= {2'b00, odata[3'd7 - opos_q[2:0]], 1'b0};
        io_oe_o <= 4'b0010;
      end
    end else begin
      io_oe_o <= '0;
    end
  end

`ifdef VERILATOR
  // Back door for the simulation harness: load the flash image, inspect it, set dummy counts.
  export "DPI-C" function qspi_flash_backdoor_write;
  export "DPI-C" function qspi_flash_backdoor_read;
  export "DPI-C" function qspi_flash_backdoor_bytes;
  export "DPI-C" function qspi_flash_set_dummy;
  export "DPI-C" function qspi_flash_error_count;

  function void qspi_flash_backdoor_write(input int unsigned addr, input byte unsigned data);
    erase_once();
    mem_q[addr[AW-1:2]][8 * addr[1:0] +: 8] = data;
  endfunction

  function byte unsigned qspi_flash_backdoor_read(input int unsigned addr);
    return mem_q[addr[AW-1:2]][8 * addr[1:0] +: 8];
  endfunction

  function int unsigned qspi_flash_backdoor_bytes();
    return SizeBytes;
  endfunction

  function void qspi_flash_set_dummy(input int unsigned fast, input int unsigned qio);
    dummy_fast = fast;
    dummy_qio  = qio;
  endfunction

  function int unsigned qspi_flash_error_count();
    return err_count;
  endfunction
`endif

endmodule

`default_nettype wire
