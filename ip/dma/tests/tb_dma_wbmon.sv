// SPDX-License-Identifier: Apache-2.0
// DMA testbench bus monitor: counts beats and Wishbone burst-protocol violations of one master.
`default_nettype none

// Violations: a pending beat (STB without ACK/ERR) changes address, CTI, WE or write data; a
// burst continued after an ACK with CTI 010/001 drops CYC (without a bus error) or does not
// present the next address (+1 for 010, the same for 001); BTE other than 00.
module tb_dma_wbmon (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        cyc_i,
  input  wire logic        stb_i,
  input  wire logic        we_i,
  input  wire logic [29:0] adr_i,
  input  wire logic [31:0] dat_i,
  input  wire logic [2:0]  cti_i,
  input  wire logic [1:0]  bte_i,
  input  wire logic        ack_i,
  input  wire logic        err_i,
  output logic [31:0]      beats_o,
  output logic [31:0]      violations_o
);

  logic        pend_q, cont_q;
  logic [29:0] adr_q;
  logic [31:0] dat_q;
  logic [2:0]  cti_q;
  logic        we_q;
  logic [31:0] beats_q, viol_q;
  logic        bad;

  always_comb begin
    bad = 1'b0;
    if (cyc_i && stb_i && bte_i != 2'b00) bad = 1'b1;
    if (pend_q && (!(cyc_i && stb_i) || adr_i != adr_q || cti_i != cti_q || we_i != we_q ||
                   (we_i && dat_i != dat_q))) begin
      bad = 1'b1;
    end
    if (cont_q) begin
      if (!(cyc_i && stb_i)) bad = 1'b1;
      else if (cti_q == 3'b010 && adr_i != adr_q + 30'd1) bad = 1'b1;
      else if (cti_q == 3'b001 && adr_i != adr_q) bad = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pend_q  <= 1'b0;
      cont_q  <= 1'b0;
      adr_q   <= '0;
      dat_q   <= '0;
      cti_q   <= '0;
      we_q    <= 1'b0;
      beats_q <= '0;
      viol_q  <= '0;
    end else begin
      pend_q <= cyc_i && stb_i && !ack_i && !err_i;
      cont_q <= cyc_i && stb_i && ack_i && (cti_i == 3'b010 || cti_i == 3'b001);
      adr_q  <= adr_i;
      dat_q  <= dat_i;
      cti_q  <= cti_i;
      we_q   <= we_i;
      if (cyc_i && stb_i && ack_i) beats_q <= beats_q + 32'd1;
      if (bad) viol_q <= viol_q + 32'd1;
    end
  end

  assign beats_o      = beats_q;
  assign violations_o = viol_q;

endmodule

`default_nettype wire
