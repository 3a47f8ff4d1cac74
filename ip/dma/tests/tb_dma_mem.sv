// SPDX-License-Identifier: Apache-2.0
// DMA testbench memory: Wishbone classic/burst slave with random wait states and ERR injection.
`default_nettype none

// With wait_i = 0 it times like wb_sram: ACK one cycle after STB, then one burst beat per cycle
// (incrementing CTI 010 and constant-address CTI 001). wait_i/256 is the chance that a beat's
// answer is held back one more cycle. A beat at word address err_adr_i (when err_en_i) is
// answered with ERR and not performed.
module tb_dma_mem #(
  parameter int unsigned Words = 16384,
  parameter logic [15:0] Seed  = 16'hACE1,
  localparam int unsigned AW = $clog2(Words)
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        wb_cyc_i,
  input  wire logic        wb_stb_i,
  input  wire logic        wb_we_i,
  input  wire logic [29:0] wb_adr_i,
  input  wire logic [31:0] wb_dat_i,
  input  wire logic [3:0]  wb_sel_i,
  input  wire logic [2:0]  wb_cti_i,
  input  wire logic [1:0]  wb_bte_i,
  output logic [31:0]      wb_dat_o,
  output logic             wb_ack_o,
  output logic             wb_err_o,
  input  wire logic [7:0]  wait_i,
  input  wire logic        err_en_i,
  input  wire logic [29:0] err_adr_i
);

  logic [31:0] mem_q [Words] /* verilator public_flat_rw */;
  logic [31:0] rdata_q;
  logic        resp_q;
  logic [15:0] lfsr_q;
  logic        req, cont, stall, bad;
  logic [AW-1:0] word, read_word;

  assign req   = wb_cyc_i & wb_stb_i;
  assign cont  = (wb_cti_i == 3'b010 || wb_cti_i == 3'b001) && wb_bte_i == 2'b00;
  assign stall = lfsr_q[7:0] < wait_i;
  assign bad   = err_en_i && (wb_adr_i == err_adr_i);
  assign word  = wb_adr_i[AW-1:0];
  // While a burst beat is answered, read the next beat's word so it can be answered next cycle.
  assign read_word = (req && resp_q && wb_cti_i == 3'b010) ? word + AW'(1) : word;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      resp_q <= 1'b0;
      lfsr_q <= Seed;
    end else begin
      resp_q <= req & (~resp_q | cont) & ~stall;
      lfsr_q <= {lfsr_q[14:0], lfsr_q[15] ^ lfsr_q[13] ^ lfsr_q[12] ^ lfsr_q[10]};
    end
  end

  always_ff @(posedge clk_i) begin
    rdata_q <= mem_q[read_word];
    if (req && resp_q && wb_we_i && !bad) begin
      for (int b = 0; b < 4; b++) begin
        if (wb_sel_i[b]) mem_q[word][8*b +: 8] <= wb_dat_i[8*b +: 8];
      end
    end
  end

  assign wb_dat_o = rdata_q;
  assign wb_ack_o = req & resp_q & ~bad;
  assign wb_err_o = req & resp_q & bad;

  logic unused;
  assign unused = ^{wb_adr_i[29:AW]};

endmodule

`default_nettype wire
