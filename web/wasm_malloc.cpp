// The module's allocator, in place of wasi-libc's dlmalloc: malloc, free, calloc, realloc and
// aligned_alloc over the module's one linear memory, growing it a page at a time as needed.
//
// Why not dlmalloc: it is about 10 KB of the module (its segregated small and tree bins,
// footers checked for corruption, mmap emulation, memalign), where this is under 1 KB. The
// module is single-threaded and allocates mostly while loading a rig; a frame allocates
// nothing. What it keeps: every block 16-byte aligned, freed blocks merged with free
// neighbours at once, a free block found in a list per size class (exact up to 496 bytes,
// then four classes per power of two), so memory after loading and freeing rigs stays close
// to dlmalloc's.
//
// A block is a 4-byte header (its size, a multiple of 16, and two flags) before its payload;
// a free block also holds its list links and, in its last word, its size again, so that the
// block after it can find its start. "top" is where fresh memory begins: the block before it
// is always in use (a block freed next to it is given back to it), as is the block before
// any free block (free neighbours are merged).
//
// Built without builtins (web/CMakeLists.txt): the compiler would otherwise recognise
// malloc-then-memset in calloc as a call to calloc itself.
#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" unsigned char __heap_base;  // wasm-ld: the first byte after the stack and data

namespace {

using Word = std::uint32_t;  // wasm32: addresses and sizes
constexpr Word kInUse = 1, kPreviousInUse = 2, kFlags = 15;
constexpr Word kAlign = 16, kPage = 65536;
constexpr int kClasses = 128;

struct FreeBlock {
  Word head;
  FreeBlock* next;
  FreeBlock* previous;
};

FreeBlock* lists[kClasses];
Word top, end;  // fresh memory: [top, end)

Word& head_at(Word block) { return *reinterpret_cast<Word*>(block); }
Word size_of(Word head) { return head & ~kFlags; }

// Exact classes for blocks up to 31 * 16 bytes, then four per power of two (at most 123).
int class_of(Word size) {
  const Word units = size / kAlign;
  if (units < 32) return static_cast<int>(units);
  const int log = 31 - __builtin_clz(units);
  return 32 + 4 * (log - 5) + static_cast<int>((units >> (log - 2)) & 3);
}

void insert(Word block, Word size) {
  *reinterpret_cast<Word*>(block + size - 4) = size;
  FreeBlock* const b = reinterpret_cast<FreeBlock*>(block);
  FreeBlock*& list = lists[class_of(size)];
  b->next = list;
  b->previous = nullptr;
  if (list) list->previous = b;
  list = b;
}

void remove(FreeBlock* b) {
  if (b->previous)
    b->previous->next = b->next;
  else
    lists[class_of(size_of(b->head))] = b->next;
  if (b->next) b->next->previous = b->previous;
}

}  // namespace

extern "C" {

void* malloc(std::size_t n) {
  if (n > 0x7FFF0000u) return nullptr;
  const Word size = (static_cast<Word>(n) + 4 + kAlign - 1) & ~(kAlign - 1);
  if (!end) {
    // Payloads on 16-byte boundaries: each block starts 4 bytes before one.
    top = ((reinterpret_cast<Word>(&__heap_base) + 4 + kAlign - 1) & ~(kAlign - 1)) - 4;
    end = static_cast<Word>(__builtin_wasm_memory_size(0)) * kPage;
  }
  // The first block large enough in the size's own class, else any block of a larger class.
  int c = class_of(size);
  FreeBlock* found = lists[c];
  while (found && size_of(found->head) < size) found = found->next;
  while (!found && ++c < kClasses) found = lists[c];
  Word block;
  if (found) {
    remove(found);
    block = reinterpret_cast<Word>(found);
    Word have = size_of(found->head);
    if (have - size >= kAlign) {  // the rest stays free
      head_at(block + size) = (have - size) | kPreviousInUse;
      insert(block + size, have - size);
      have = size;
    } else {
      head_at(block + have) |= kPreviousInUse;
    }
    head_at(block) = have | kInUse | kPreviousInUse;
  } else {
    if (end - top < size) {
      const Word pages = (size - (end - top) + kPage - 1) / kPage;
      if (__builtin_wasm_memory_grow(0, pages) == static_cast<std::size_t>(-1)) return nullptr;
      end += pages * kPage;
    }
    block = top;
    top += size;
    head_at(block) = size | kInUse | kPreviousInUse;
  }
  return reinterpret_cast<void*>(block + 4);
}

void free(void* p) {
  if (!p) return;
  Word block = reinterpret_cast<Word>(p) - 4;
  const Word head = head_at(block);
  Word size = size_of(head);
  const Word next = block + size;
  if (!(head & kPreviousInUse)) {
    const Word before = *reinterpret_cast<Word*>(block - 4);
    block -= before;
    size += before;
    remove(reinterpret_cast<FreeBlock*>(block));
  }
  if (next == top) {
    top = block;
    return;
  }
  const Word next_head = head_at(next);
  if (next_head & kInUse) {
    head_at(next) = next_head & ~kPreviousInUse;
  } else {
    remove(reinterpret_cast<FreeBlock*>(next));
    size += size_of(next_head);
  }
  head_at(block) = size | kPreviousInUse;
  insert(block, size);
}

void* calloc(std::size_t count, std::size_t size) {
  if (size && count > static_cast<std::size_t>(-1) / size) return nullptr;
  void* p = malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}

void* realloc(void* p, std::size_t n) {
  if (!p) return malloc(n);
  void* q = malloc(n);
  if (q) {
    const std::size_t had = size_of(head_at(reinterpret_cast<Word>(p) - 4)) - 4;
    std::memcpy(q, p, had < n ? had : n);
    free(p);
  }
  return q;
}

// Every block is 16-byte aligned, the most the runtime asks for (its chunk buffers); a
// larger alignment is refused, as C lets an allocator do.
void* aligned_alloc(std::size_t alignment, std::size_t n) { return alignment <= kAlign ? malloc(n) : nullptr; }

// wasi-libc's own callers (atexit's list of static destructors) use these names; left
// undefined, they would pull dlmalloc back in beside this allocator.
void* __libc_malloc(std::size_t n) { return malloc(n); }
void __libc_free(void* p) { free(p); }
void* __libc_calloc(std::size_t count, std::size_t size) { return calloc(count, size); }

}  // extern "C"
