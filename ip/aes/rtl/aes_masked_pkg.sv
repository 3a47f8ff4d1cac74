// SPDX-License-Identifier: Apache-2.0
// The linear parts of an AES round, for one share of the masked core (aes_masked_core).

`default_nettype none

package aes_masked_pkg;

  // ShiftRows (dec = 0) or InvShiftRows (dec = 1), as aes_round does before its S-boxes.
  function automatic logic [127:0] shift_rows(logic [127:0] s, logic dec);
    for (int c = 0; c < 4; c++) begin
      for (int r = 0; r < 4; r++) begin
        if (dec) begin
          shift_rows[127 - 32 * c - 8 * r -: 8] = s[127 - 32 * ((c + 4 - r) % 4) - 8 * r -: 8];
        end else begin
          shift_rows[127 - 32 * c - 8 * r -: 8] = s[127 - 32 * ((c + r) % 4) - 8 * r -: 8];
        end
      end
    end
  endfunction

  // After the S-boxes: (Inv)MixColumns and AddRoundKey in aes_round's order; all linear, so a
  // share of the S-box output and a share of the round key give that share of the new state.
  function automatic logic [127:0] round_tail(logic [127:0] subbed, logic [127:0] rk, logic dec,
                                              logic final_round);
    logic [127:0] keyed, mixed;
    keyed = dec ? (subbed ^ rk) : subbed;
    for (int c = 0; c < 4; c++) begin
      mixed[32 * c +: 32] = aes_pkg::mix_column(dec ? aes_pkg::inv_mix_pre(keyed[32 * c +: 32]) :
                                                      keyed[32 * c +: 32]);
    end
    if (final_round) begin
      round_tail = dec ? keyed : (keyed ^ rk);
    end else begin
      round_tail = dec ? mixed : (mixed ^ rk);
    end
  endfunction

endpackage

`default_nettype wire
