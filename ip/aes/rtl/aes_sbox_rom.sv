// SPDX-License-Identifier: Apache-2.0
// AES S-box as a synchronous-read ROM (one FPGA block RAM), for the compact core's SBoxImpl 2.

`default_nettype none

// data_o is the S-box (inverse S-box with inv_i) of the byte last presented with en_i: the
// read register is the ROM's own (an iCE40 SB_RAM40_4K or ECP5 DP16KD output latch), so a
// caller presents next cycle's byte. Forward and inverse tables share one 512 x 8 ROM, the
// direction as address bit 8 (DecEnable 0: the 256-entry forward table only). The tables are
// built at elaboration by aes_pkg::sbox_table.
//
// Zeroise: every entry is stored XOR S(0) and corrected on the way out, so the read register
// holds zero after a read of address 0 (forward), which a caller makes under clear_i and
// reset. The register has no reset of its own (block RAM output latches have none): it is
// zero from the first clock edge with address 0.
module aes_sbox_rom #(
  parameter bit DecEnable = 1'b1
) (
  input  logic       clk_i,
  input  logic       en_i,    // read enable: data_o holds while low
  input  logic [7:0] data_i,
  input  logic       inv_i,   // ignored without DecEnable
  output logic [7:0] data_o
);
  localparam int unsigned   Depth  = DecEnable ? 512 : 256;
  localparam int unsigned   AW     = DecEnable ? 9 : 8;
  // Entry a in bits [8 * a +: 8]: the forward table, then the inverse one.
  localparam logic [4095:0] Tables = {aes_pkg::sbox_table(1'b1), aes_pkg::sbox_table(1'b0)};
  localparam logic [7:0]    S0     = Tables[7:0];

  (* rom_style = "block" *) logic [7:0] rom [Depth];  // one block RAM, never LUTs or FFs
  logic [7:0]    data_q;
  logic [AW-1:0] addr;

  initial begin
    for (int a = 0; a < Depth; a++) begin
      rom[a] = S0 ^ Tables[8 * a +: 8];
    end
  end

  if (DecEnable) begin : gen_inv
    assign addr = {inv_i, data_i};
  end else begin : gen_fwd
    logic unused_inv;
    assign unused_inv = inv_i;
    assign addr       = data_i;
  end

  always_ff @(posedge clk_i) begin
    if (en_i) begin
      data_q <= rom[addr];
    end
  end

  assign data_o = data_q ^ S0;

endmodule

`default_nettype wire
