// SPDX-License-Identifier: Apache-2.0
// AES S-box for one byte with a choice of implementation (a datapath's SBoxImpl).

`default_nettype none

// Impl 0: aes_sbox, the tower-field inverter shared by both directions.
// Impl 1: tables, forward and inverse, 256 entries each, built at elaboration by
//         aes_pkg::sbox_table and left to synthesis as a lookup (a ROM read, or logic where no
//         ROM fits).
// docs/aes_engine.md compares the two per FPGA family: the tower field is smaller on iCE40, the
// tables about half as deep on ECP5; 0 stays the default.
module aes_sbox_sel #(
  parameter int unsigned Impl      = 0,
  parameter bit          DecEnable = 1'b1  // 0: forward S-box only, inv_i is ignored
) (
  input  logic [7:0] data_i,
  input  logic       inv_i,
  output logic [7:0] data_o
);
  if (Impl == 1) begin : gen_table
    localparam logic [2047:0] FWD = aes_pkg::sbox_table(1'b0);
    localparam logic [2047:0] INV = aes_pkg::sbox_table(1'b1);

    logic [7:0] fwd;
    assign fwd = FWD[8 * data_i +: 8];
    if (DecEnable) begin : gen_inv
      assign data_o = inv_i ? INV[8 * data_i +: 8] : fwd;
    end else begin : gen_fwd
      logic unused_inv;
      assign unused_inv = ^{inv_i, INV[0]};
      assign data_o     = fwd;
    end
  end else begin : gen_tower
    aes_sbox #(
      .DecEnable(DecEnable)
    ) u_sbox (
      .data_i,
      .inv_i,
      .data_o
    );
  end

endmodule

`default_nettype wire
