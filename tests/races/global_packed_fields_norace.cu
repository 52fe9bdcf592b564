// global_packed_fields_norace.cu: three blocks fill three different fields of the same
// 4-byte packed records in global memory (a char, a char and a short), with nothing
// ordering the blocks: their bytes never overlap, so this is not a race.
// SCORD-CATEGORY: 3
// SCORD-EXPECT: no race
#include "rs_common.h"

enum { RECORDS = 256 };

struct Record {
    unsigned char tag;
    unsigned char flags;
    unsigned short count;
};
static_assert(sizeof(Record) == 4, "Record must pack into one word");

__global__ void fill_fields(Record *records)
{
    for (int r = threadIdx.x; r < RECORDS; r += blockDim.x) {
        if (blockIdx.x == 0)
            records[r].tag = (unsigned char)r;
        else if (blockIdx.x == 1)
            records[r].flags = (unsigned char)(r * 3);
        else
            records[r].count = (unsigned short)(r * 1000);
    }
}

int main()
{
    rs_require_device();
    Record *records = rs_zeros<Record>(RECORDS);
    fill_fields<<<3, 64>>>(records);
    RS_LAUNCHED();
    rs_print_checksum("records", records, RECORDS);
    rs_done();
    return 0;
}
