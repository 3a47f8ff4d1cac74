#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write ip/dma/data/dma.rdl: the DMA register map, four channels spelled out one by one.

Each channel's registers are one external regfile instance (CH0 ... CH3, written out instead of
as an array, because Yosys 0.23 cannot read the unpacked array ports an array would produce),
implemented by rtl/dma_chan_regs.sv. Run this script after changing the map and commit the .rdl.
"""

from __future__ import annotations

from pathlib import Path

NUM_CH = 4
CH_BASE = 0x100
CH_STRIDE = 0x40

HEADER = """\
// SPDX-License-Identifier: Apache-2.0
// dma: register map of the DMA controller (written by gen_dma_rdl.py; edit the script, not this file).
addrmap dma_regs {
    name = "DMA controller";
    desc = "Four-channel DMA controller with separate read and write bus masters, per-channel
            FIFOs, peripheral request lines, linked-list descriptors, error reporting and
            performance counters. Channel registers that configure a transfer (CTRL, FLOW, SRC,
            DST, LEN, NEXT) ignore writes while the channel is busy.";
    default regwidth = 32;
    default accesswidth = 32;

    reg {
        name = "Identification";
        field { sw = r; hw = na; desc = "ASCII 'DMAC'."; } id[31:0] = 0x444D4143;
    } ID @ 0x000;

    reg {
        name = "Version";
        field { sw = r; hw = na; } minor[15:0] = 1;
        field { sw = r; hw = na; } major[31:16] = 0;
    } VERSION @ 0x004;

    reg {
        name = "Hardware configuration";
        desc = "RTL parameters of this instance.";
        field { sw = r; hw = w; desc = "Number of channels."; } channels[3:0];
        field { sw = r; hw = w; desc = "Number of peripheral request lines (NumReq)."; } num_req[7:4];
        field { sw = r; hw = w; desc = "FIFO depth per channel in 32-bit words (FifoDepth)."; } fifo_depth[15:8];
        field { sw = r; hw = w; desc = "Number of address windows a channel may use (NumWin)."; } num_win[19:16];
    } HWCFG @ 0x008;

    reg {
        name = "Command";
        desc = "Write 1 to act; reads as 0. Several channels may be started or aborted by one write.";
{cmd_fields}
        field { sw = w; hw = r; singlepulse; desc = "Clear BUSY_CYCLES."; } clr_busy_cycles[16:16] = 0;
    } CMD @ 0x010;

    reg {
        name = "Status";
        field { sw = r; hw = w; desc = "Bit c: channel c is busy (started and not yet done or stopped)."; } busy[3:0];
    } STATUS @ 0x014;

    reg {
        name = "Interrupt status";
        desc = "Write 1 to clear a bit. A bit is set when its channel stops, after the channel is idle again.";
{irq_fields}
    } IRQ_STATUS @ 0x018;

    reg {
        name = "Interrupt enable";
        field { sw = rw; hw = r; desc = "Bit c enables the done interrupt of channel c."; } done[3:0] = 0;
        field { sw = rw; hw = r; desc = "Bit c enables the error interrupt of channel c."; } err[11:8] = 0;
    } IRQ_ENABLE @ 0x01C;

    reg {
        name = "Busy cycles";
        desc = "Counts every cycle in which at least one channel is busy; cleared by CMD.CLR_BUSY_CYCLES.";
        field { sw = r; hw = w; } count[31:0];
    } BUSY_CYCLES @ 0x020;
"""

CHANNEL_TYPE = """
    // One channel's registers, implemented outside the generated block (rtl/dma_chan_regs.sv):
    // SRC/DST/LEN/NEXT are also loaded by descriptor fetches, and a channel that is busy ignores
    // writes to CTRL, FLOW, SRC, DST, LEN and NEXT.
    regfile dma_chan {
        reg {
            name = "Channel control";
            desc = "Transfer configuration. Ignores writes while the channel is busy.";
            field { sw = rw; hw = r; desc = "Source address mode: 0 increment, 1 fixed, 2 wrap within the block."; } src_mode[1:0] = 0;
            field { sw = rw; hw = r; desc = "Destination address mode: 0 increment, 1 fixed, 2 wrap within the block."; } dst_mode[3:2] = 0;
            field { sw = rw; hw = r; desc = "Burst length: 0 single beats, 1 four beats, 2 eight beats."; } burst[5:4] = 0;
            field { sw = rw; hw = r; desc = "1: read ahead into the FIFO before the destination peripheral asks; 0: with a destination request line, read a block only after its request."; } prefetch[6:6] = 0;
            field { sw = rw; hw = r; desc = "1: on start, load the first descriptor from NEXT instead of using SRC/DST/LEN."; } chain[7:7] = 0;
            field { sw = rw; hw = r; desc = "Channel priority inside the DMA, 3 highest; equal priorities take turns burst by burst."; } prio[9:8] = 0;
            field { sw = rw; hw = r; desc = "Crossbar priority class of this channel's bursts (1 high)."; } bus_prio[10:10] = 0;
            field { sw = rw; hw = r; desc = "Pace reads by the source request line."; } src_req_en[12:12] = 0;
            field { sw = rw; hw = r; desc = "Source request line index."; } src_req_sel[15:13] = 0;
            field { sw = rw; hw = r; desc = "Pace writes by the destination request line."; } dst_req_en[16:16] = 0;
            field { sw = rw; hw = r; desc = "Destination request line index."; } dst_req_sel[19:17] = 0;
        } CTRL @ 0x00;

        reg {
            name = "Channel flow control";
            desc = "Ignores writes while the channel is busy.";
            field { sw = rw; hw = r; desc = "Block size in words: words moved per request, and the wrap length of the wrap address mode (1..255)."; } block[7:0] = 4;
            field { sw = rw; hw = r; desc = "Use at most this many FIFO words (0 or more than the depth: the whole FIFO). Must be at least twice the burst length."; } fifo_limit[22:16] = 0;
        } FLOW @ 0x04;

        reg {
            name = "Channel source address";
            desc = "Byte address, word aligned. Loaded from a descriptor in chained transfers. Ignores writes while the channel is busy.";
            field { sw = rw; hw = rw; } addr[31:0] = 0;
        } SRC @ 0x08;

        reg {
            name = "Channel destination address";
            desc = "Byte address, word aligned. Loaded from a descriptor in chained transfers. Ignores writes while the channel is busy.";
            field { sw = rw; hw = rw; } addr[31:0] = 0;
        } DST @ 0x0C;

        reg {
            name = "Channel length";
            desc = "Bytes to move, a non-zero multiple of 4. Loaded from a descriptor in chained transfers. Ignores writes while the channel is busy.";
            field { sw = rw; hw = rw; } len[23:0] = 0;
        } LEN @ 0x10;

        reg {
            name = "Channel next descriptor";
            desc = "Byte address of the next descriptor (word aligned), 0 for none. Loaded from a descriptor in chained transfers. Ignores writes while the channel is busy.";
            field { sw = rw; hw = rw; } addr[31:0] = 0;
        } NEXT @ 0x14;

        reg {
            name = "Channel status";
            field { sw = r; hw = w; desc = "The channel is busy."; } busy[0:0];
            field { sw = r; hw = w; desc = "A source request is granted (reads of one block allowed)."; } src_cred[1:1];
            field { sw = r; hw = w; desc = "A destination request is granted (writes of one block allowed)."; } dst_cred[2:2];
            field { sw = r; hw = w; desc = "Error code of the last stop, 0 none (see docs/dma.md); cleared by a start."; } err[7:4];
            field { sw = r; hw = w; desc = "Words in the channel FIFO."; } fifo_level[14:8];
        } STATUS @ 0x18;

        reg {
            name = "Channel remaining words";
            field { sw = r; hw = w; desc = "Words of the current descriptor not yet written."; } words[21:0];
        } REMAIN @ 0x1C;

        reg {
            name = "Channel busy cycles";
            desc = "Cycles from the start until the channel is idle again (all descriptors); cleared by a start.";
            field { sw = r; hw = w; } count[31:0];
        } CYCLES @ 0x20;

        reg {
            name = "Channel request wait cycles";
            desc = "Busy cycles in which a paced side had words left but no granted request; cleared by a start.";
            field { sw = r; hw = w; } count[31:0];
        } WAIT @ 0x24;

        reg {
            name = "Channel read beats";
            desc = "Data words read (descriptor fetches not counted); cleared by a start.";
            field { sw = r; hw = w; } count[31:0];
        } RD_BEATS @ 0x28;

        reg {
            name = "Channel write beats";
            desc = "Data words written; cleared by a start.";
            field { sw = r; hw = w; } count[31:0];
        } WR_BEATS @ 0x2C;
    };
"""

def render() -> str:
    cmd = []
    irq = []
    for c in range(NUM_CH):
        cmd.append(f'        field {{ sw = w; hw = r; singlepulse; desc = "Start channel {c} (ignored while it is busy)."; }} '
                   f"start{c}[{c}:{c}] = 0;")
    for c in range(NUM_CH):
        b = 8 + c
        cmd.append(f'        field {{ sw = w; hw = r; singlepulse; desc = "Abort channel {c}: it stops after its current burst with error code ABORT."; }} '
                   f"abort{c}[{b}:{b}] = 0;")
    for c in range(NUM_CH):
        irq.append(f'        field {{ sw = rw; onwrite = woclr; hw = r; hwset; precedence = hw; desc = "Channel {c} finished its transfer (and chain)."; }} '
                   f"done{c}[{c}:{c}] = 0;")
    for c in range(NUM_CH):
        b = 8 + c
        irq.append(f'        field {{ sw = rw; onwrite = woclr; hw = r; hwset; precedence = hw; desc = "Channel {c} stopped on an error (CHn_STATUS.ERR)."; }} '
                   f"err{c}[{b}:{b}] = 0;")
    text = HEADER.replace("{cmd_fields}", "\n".join(cmd)).replace("{irq_fields}", "\n".join(irq))
    text += CHANNEL_TYPE
    for c in range(NUM_CH):
        text += f"    external dma_chan CH{c} @ 0x{CH_BASE + CH_STRIDE * c:03X};\n"
    return text + "};\n"


if __name__ == "__main__":
    out = Path(__file__).resolve().parent / "dma.rdl"
    out.write_text(render())
    print(f"wrote {out}")
