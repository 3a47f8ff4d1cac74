// SPDX-License-Identifier: Apache-2.0
// AES S-box for one byte: forward (SubBytes) or, when decryption is built, inverse (InvSubBytes).

`default_nettype none

module aes_sbox #(
  parameter bit DecEnable = 1'b1  // 0: forward S-box only, inv_i is ignored
) (
  input  logic [7:0] data_i,
  input  logic       inv_i,
  output logic [7:0] data_o
);
`ifdef AESOC_SIM_SBOX_TABLE
  // SoC simulation models only (aesoc.soc.build_model): the same function as a table read, built at
  // elaboration by aes_pkg::sbox_table, because Verilator evaluates every S-box of every engine in
  // every cycle and the tower field was a quarter of a full SoC's simulation time. Block tests,
  // synthesis, gate-level tests and the activity model take the tower field.
  localparam logic [2047:0] FWD = aes_pkg::sbox_table(1'b0);
  localparam logic [2047:0] INV = aes_pkg::sbox_table(1'b1);

  if (DecEnable) begin : gen_fwd_inv
    assign data_o = inv_i ? INV[8 * data_i +: 8] : FWD[8 * data_i +: 8];
  end else begin : gen_fwd
    logic unused_inv;
    assign unused_inv = ^{inv_i, INV[0]};
    assign data_o     = FWD[8 * data_i +: 8];
  end
`else
  if (DecEnable) begin : gen_fwd_inv
    // Both directions share the tower-field inverter; only the linear maps around it differ.
    logic [7:0] tower_in, tower_out;
    assign tower_in  = inv_i ?
        (aes_pkg::gf2_matrix(aes_pkg::TO_TOWER_INVAFF, data_i) ^ aes_pkg::TOWER_INVAFF_C) :
        aes_pkg::gf2_matrix(aes_pkg::TO_TOWER, data_i);
    assign tower_out = aes_pkg::gf256_inv_tower(tower_in);
    assign data_o    = inv_i ? aes_pkg::gf2_matrix(aes_pkg::FROM_TOWER, tower_out) :
        (aes_pkg::gf2_matrix(aes_pkg::FROM_TOWER_AFF, tower_out) ^ aes_pkg::AFFINE_C);
  end else begin : gen_fwd
    logic unused_inv;
    assign unused_inv = inv_i;
    assign data_o = aes_pkg::sbox_fwd(data_i);
  end

`endif

endmodule

`default_nettype wire
