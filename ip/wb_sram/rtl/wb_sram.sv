// SPDX-License-Identifier: Apache-2.0
// Zero-wait-state Wishbone classic SRAM with byte enables and one-beat-per-cycle linear bursts.
`default_nettype none

module wb_sram #(
  parameter int unsigned SizeBytes = 65536,
  // Only tells the simulation back door where this bank sits in the memory map.
  parameter logic [31:0] BaseAddr  = 32'h0
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
  output logic             wb_err_o
);

  localparam int unsigned WORDS = SizeBytes / 4;
  localparam int unsigned AW    = $clog2(WORDS);
  localparam logic [2:0] CTI_INCR = 3'b010;

  logic [31:0]   mem_q [WORDS];
  logic [AW-1:0] word_addr;
  logic [AW-1:0] read_addr;
  logic          req;
  logic          burst_next;
  logic          ack_q;
  logic [31:0]   rdata_q;

  assign word_addr = wb_adr_i[AW-1:0];
  assign req       = wb_cyc_i & wb_stb_i;
  // While a beat of a linear burst is being acknowledged the master still shows its address;
  // reading one word ahead lets the next beat be acknowledged in the very next cycle.
  assign burst_next = req & ack_q & (wb_cti_i == CTI_INCR) & (wb_bte_i == 2'b00);
  assign read_addr  = burst_next ? word_addr + AW'(1) : word_addr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q <= 1'b0;
    end else begin
      ack_q <= req & (~ack_q | burst_next);
    end
  end

  always_ff @(posedge clk_i) begin
    rdata_q <= mem_q[read_addr];
    // A write lands in the cycle it is acknowledged, when address and data are those of the beat.
    if (req & ack_q & wb_we_i) begin
      for (int b = 0; b < 4; b++) begin
        if (wb_sel_i[b]) begin
          mem_q[word_addr][8*b +: 8] <= wb_dat_i[8*b +: 8];
        end
      end
    end
  end

  logic unused_adr;
  assign unused_adr = ^wb_adr_i[29:AW];

  assign wb_dat_o = rdata_q;
  assign wb_ack_o = ack_q & req;
  assign wb_err_o = 1'b0;

`ifdef VERILATOR
  // Back door for the simulation harness: load an ELF image and inspect results.
  export "DPI-C" function wb_sram_backdoor_write;
  export "DPI-C" function wb_sram_backdoor_read;
  export "DPI-C" function wb_sram_backdoor_words;
  export "DPI-C" function wb_sram_backdoor_base;

  function void wb_sram_backdoor_write(input int unsigned word, input int unsigned data);
    mem_q[word[AW-1:0]] = data;
  endfunction

  function int unsigned wb_sram_backdoor_read(input int unsigned word);
    return mem_q[word[AW-1:0]];
  endfunction

  function int unsigned wb_sram_backdoor_words();
    return WORDS;
  endfunction

  function int unsigned wb_sram_backdoor_base();
    return BaseAddr;
  endfunction
`endif

endmodule

`default_nettype wire
