// SPDX-License-Identifier: Apache-2.0
// AXI4 master: burst encodings and the address-channel fields its read and write halves share.
`default_nettype none

package axi_master_pkg;

  localparam logic [1:0] BurstFixed = 2'b00;  // AxBURST (AMBA AXI4, A3.4.1)
  localparam logic [1:0] BurstIncr  = 2'b01;

  // Beats of the AXI burst that starts a request of `beats` words at word address `addr`: an INCR
  // burst stops at the next 4 KB boundary (AXI forbids crossing it), a FIXED one never moves.
  function automatic logic [3:0] burst_len(logic [9:0] addr, logic [3:0] beats, logic fixed);
    logic [10:0] room;  // words to the next 4 KB boundary
    room = 11'd1024 - {1'b0, addr};
    burst_len = (!fixed && room < 11'(beats)) ? room[3:0] : beats;
  endfunction

  // {AxADDR, AxLEN, AxSIZE, AxBURST, AxLOCK, AxCACHE, AxPROT, AxQOS} of a burst of `len` 32-bit
  // beats. AxCACHE 0000 (device, non-bufferable): a fixed address may be a FIFO register.
  // AxQOS 0xF for a priority burst, else 0.
  function automatic logic [56:0] ax_fields(logic [29:0] addr, logic [3:0] len, logic fixed,
                                            logic prio);
    ax_fields = {addr, 2'b00, 8'(len - 4'd1), 3'b010, fixed ? BurstFixed : BurstIncr, 1'b0,
                 4'b0000, 3'b000, {4{prio}}};
  endfunction

endpackage

`default_nettype wire
