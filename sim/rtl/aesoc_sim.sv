// SPDX-License-Identifier: Apache-2.0
// Simulation top: the SoC with its QSPI flash model on the flash pins (simulation only).
`default_nettype none

module aesoc_sim #(
  parameter int unsigned Sram0Bytes           = 262144,
  parameter int unsigned Sram1Bytes           = 65536,
  parameter bit          AesCfu               = 1'b1,
  parameter int unsigned AesCfuRoundsPerCycle = 1,
  parameter bit          AesMmio              = 1'b1,
  parameter int unsigned AesRoundsPerCycle    = 1,
  parameter bit          AesPipelined         = 1'b0,
  parameter int unsigned AesFifoDepth         = 2,
  parameter bit          Xip                  = 1'b1,
  parameter int unsigned FlashBytes           = 16 * 1024 * 1024,
  parameter int unsigned XipPrefetchWords     = 16,
  parameter int unsigned XipRoundsPerCycle    = 1,
  parameter bit          Dma                  = 1'b1,
  parameter int unsigned DmaFifoDepth         = 64
) (
  input  wire logic         clk_i,
  input  wire logic         rst_ni,
  /* verilator tracing_off */
  input  wire logic [127:0] otp_kek_i,  // set by the harness (--kek)
  /* verilator tracing_on */
  output logic              exit_valid_o,
  output logic [7:0]        exit_code_o,
  output logic              console_valid_o,
  output logic [7:0]        console_char_o,
  output logic              flash_err_o
);

  logic       sck, cs_n;
  logic [3:0] io_m2s, io_m2s_oe, io_s2m, io_s2m_oe;

  aesoc_top #(
    .Sram0Bytes           (Sram0Bytes),
    .Sram1Bytes           (Sram1Bytes),
    .AesCfu               (AesCfu),
    .AesCfuRoundsPerCycle (AesCfuRoundsPerCycle),
    .AesMmio              (AesMmio),
    .AesRoundsPerCycle    (AesRoundsPerCycle),
    .AesPipelined         (AesPipelined),
    .AesFifoDepth         (AesFifoDepth),
    .Xip                  (Xip),
    .FlashBytes           (FlashBytes),
    .XipPrefetchWords     (XipPrefetchWords),
    .XipRoundsPerCycle    (XipRoundsPerCycle),
    .Dma                  (Dma),
    .DmaFifoDepth         (DmaFifoDepth)
  ) u_soc (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .otp_kek_i       (otp_kek_i),
    .flash_sck_o     (sck),
    .flash_cs_no     (cs_n),
    .flash_io_o      (io_m2s),
    .flash_io_oe_o   (io_m2s_oe),
    .flash_io_i      (io_s2m),
    .exit_valid_o    (exit_valid_o),
    .exit_code_o     (exit_code_o),
    .console_valid_o (console_valid_o),
    .console_char_o  (console_char_o)
  );

  // The harness watches err_o and ends the run with a clear message instead of $fatal.
  qspi_flash #(.SizeBytes(FlashBytes), .FatalOnError(1'b0)) u_flash (
    .rst_ni  (rst_ni),
    .sck_i   (sck),
    .cs_ni   (cs_n),
    .io_i    (io_m2s),
    .io_oe_i (io_m2s_oe),
    .io_o    (io_s2m),
    .io_oe_o (io_s2m_oe),
    .err_o   (flash_err_o)
  );

  logic unused;
  assign unused = ^io_s2m_oe;

`ifdef VERILATOR
  // Where the flash window sits, for the harness's ELF loader.
  export "DPI-C" function aesoc_flash_base;
  function int unsigned aesoc_flash_base();
    return aesoc_pkg::FLASH_BASE;
  endfunction
`endif

endmodule

`default_nettype wire
