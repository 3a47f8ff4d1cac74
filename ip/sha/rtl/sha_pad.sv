// SPDX-License-Identifier: Apache-2.0
// SHA message padder: assembles bus words into blocks and appends the FIPS 180-4 padding.
`default_nettype none

// Input words carry four message bytes, byte 0 in bits 7:0; the last word of a message carries
// (length mod 4) bytes, or 4, and its other bytes are ignored. Knowing the message length from
// the start, the padder puts 0x80 right after the last byte (in the same cycle when the last word
// is short), leaves zeros (the buffer is cleared whenever a block is taken) and writes the bit
// length into the last 2 (SHA-1/224/256) or 4 (SHA-512 family) words of the final block. Padding
// costs at most two cycles after the last word, and one more block when the length does not fit.
module sha_pad #(
  parameter bit Sha512Enable = 1'b1
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              wide_i,     // SHA-512 family: 128-byte blocks, 128-bit length
  input  wire logic              start_i,    // begin a message: len_i bytes, count_i already hashed
  input  wire logic [63:0]       len_i,
  input  wire logic [63:0]       count_i,
  input  wire logic              clear_i,
  input  wire logic              in_valid_i,
  output logic                   in_ready_o,
  input  wire logic [31:0]       in_data_i,
  output logic                   blk_valid_o,
  input  wire logic              blk_ready_i,
  output logic [15:0][63:0]      blk_o,
  output logic                   expect_o,   // the message needs more data words
  output logic                   boundary_o, // expecting data at a block boundary, nothing buffered
  output logic                   idle_o,     // no message, or its final block has been handed over
  output logic [63:0]            count_o     // message bytes taken
);

  localparam int unsigned NW = Sha512Enable ? 32 : 16;  // buffer words
  localparam int unsigned PW = $clog2(NW);

  typedef enum logic [1:0] { P_IDLE, P_DATA, P_PAD, P_LAST } state_e;
  state_e state_q, state_d;

  logic [31:0]   buf_q [NW], buf_d [NW];
  logic [PW-1:0] wpos_q, wpos_d;
  logic          full_q, full_d;
  logic          need80_q, need80_d;
  logic [63:0]   len_q, len_d, rx_q, rx_d;
  logic [PW:0]   bw;         // words per block
  logic [PW:0]   lw;         // length words
  logic [63:0]   remaining;
  logic [2:0]    nb;         // bytes of the message in the word being taken
  logic [31:0]   word_be, word_pad;
  logic          take, accept;
  logic [127:0]  bit_len;

  assign bw        = wide_i ? (PW + 1)'(NW) : (PW + 1)'(16);
  assign lw        = wide_i ? (PW + 1)'(4) : (PW + 1)'(2);
  assign remaining = len_q - rx_q;
  assign nb        = (remaining >= 64'd4) ? 3'd4 : remaining[2:0];
  assign word_be   = sha_pkg::bswap(in_data_i);
  assign bit_len   = {61'd0, len_q, 3'd0};

  // Message bytes of the word (big-endian: the top nb bytes), then 0x80 if the word ends short.
  always_comb begin
    word_pad = word_be;
    for (int i = 0; i < 4; i++) begin
      if (3'(i) == nb) word_pad[31 - 8*i -: 8] = 8'h80;
      else if (3'(i) > nb) word_pad[31 - 8*i -: 8] = 8'h00;
    end
  end

  assign in_ready_o  = state_q == P_DATA && !full_q;
  assign accept      = in_valid_i && in_ready_o;
  assign blk_valid_o = full_q;
  assign take        = full_q && blk_ready_i;

  always_comb begin
    state_d  = state_q;
    buf_d    = buf_q;
    wpos_d   = wpos_q;
    full_d   = full_q;
    need80_d = need80_q;
    len_d    = len_q;
    rx_d     = rx_q;
    if (take) begin
      buf_d  = '{default: '0};
      wpos_d = '0;
      full_d = 1'b0;
    end
    unique case (state_q)
      P_DATA: begin
        if (accept) begin
          buf_d[wpos_q] = word_pad;
          wpos_d        = wpos_q + PW'(1);
          full_d        = ({1'b0, wpos_q} == bw - 1'b1);
          rx_d          = rx_q + 64'(nb);
          if (remaining <= 64'd4) begin
            state_d  = P_PAD;
            need80_d = nb == 3'd4;
          end
        end
      end
      P_PAD: begin
        if (!full_q) begin
          if (need80_q) begin
            buf_d[wpos_q] = 32'h8000_0000;
            wpos_d        = wpos_q + PW'(1);
            full_d        = ({1'b0, wpos_q} == bw - 1'b1);
            need80_d      = 1'b0;
          end else if ({1'b0, wpos_q} <= bw - lw) begin
            for (int i = 0; i < 4; i++) begin
              if ((PW + 1)'(i) < lw) buf_d[PW'(bw - 1'b1 - (PW + 1)'(i))] = bit_len[32*i +: 32];
            end
            full_d  = 1'b1;
            state_d = P_LAST;
          end else begin
            full_d = 1'b1;  // no room for the length: one more block of padding
          end
        end
      end
      P_LAST: begin
        if (take) state_d = P_IDLE;
      end
      default: ;
    endcase
    if (start_i) begin
      state_d  = (len_i == count_i) ? P_PAD : P_DATA;
      need80_d = 1'b1;
      len_d    = len_i;
      rx_d     = count_i;
      buf_d    = '{default: '0};
      wpos_d   = '0;
      full_d   = 1'b0;
    end
    if (clear_i) begin
      state_d  = P_IDLE;
      need80_d = 1'b0;
      len_d    = '0;
      rx_d     = '0;
      buf_d    = '{default: '0};
      wpos_d   = '0;
      full_d   = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= P_IDLE;
      buf_q    <= '{default: '0};
      wpos_q   <= '0;
      full_q   <= 1'b0;
      need80_q <= 1'b0;
      len_q    <= '0;
      rx_q     <= '0;
    end else begin
      state_q  <= state_d;
      buf_q    <= buf_d;
      wpos_q   <= wpos_d;
      full_q   <= full_d;
      need80_q <= need80_d;
      len_q    <= len_d;
      rx_q     <= rx_d;
    end
  end

  // A SHA-512 word is two buffer words; the 32-bit algorithms take the first 16 buffer words.
  for (genvar i = 0; i < 16; i++) begin : gen_blk
    if (Sha512Enable) begin : gen_wide
      assign blk_o[i] = wide_i ? {buf_q[2*i], buf_q[2*i+1]} : {32'h0, buf_q[i]};
    end else begin : gen_narrow
      assign blk_o[i] = {32'h0, buf_q[i]};
    end
  end

  assign expect_o   = state_q == P_DATA;
  assign boundary_o = state_q == P_DATA && wpos_q == '0 && !full_q;
  assign idle_o     = state_q == P_IDLE;
  assign count_o    = rx_q;

endmodule

`default_nettype wire
