package dev.ireestubs.vm;

import dev.ireestubs.abi.JavaMapping;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * An IREE VM list ({@code iree_vm_list_t}, the {@code vm.list} ref type): a growable array whose
 * elements are bound to one {@link VmTypeDef}.
 *
 * <ul>
 *   <li>A <b>variant list</b> ({@code list<?>}, {@link #variant}) holds any {@link VmValue}, any
 *       {@link VmRef} (including other lists, or itself) and empty slots ({@code null}). Calling
 *       conventions pass arguments and results in variant lists.
 *   <li>A <b>typed value list</b> ({@code list<i32>}, {@link #ofValues}) holds values of one {@link
 *       VmValueType}, never empty slots; a value of another width is converted as the VM converts
 *       it (integers by C cast, {@code f32}/{@code f64} to each other; integer to float and back is
 *       refused with a {@link VmTypeException}). Resizing fills in zeros.
 *   <li>A <b>typed ref list</b> ({@code list<!hal.buffer_view>}, {@link #ofRefs}) holds refs whose
 *       {@link VmRef#refTypeName()} is the bound name, and null refs.
 * </ul>
 *
 * <p>A string is a {@code list<i8>} of its UTF-8 bytes ({@link #utf8}, {@link #toUtf8String}). An
 * n-d array of refs is the tuple of a values list and a dims list ({@link VmRefArray}).
 *
 * <p>Errors: an index outside {@code [0, size)} throws {@link IndexOutOfBoundsException}; an
 * element of the wrong type (on a typed list, or read with a getter of another kind) throws {@link
 * VmTypeException} with a message naming the index, the expected and the actual type, such as
 * {@code variant at index 2 is not a value type: got hal.buffer_view<4xf32>}. Limits: at most
 * {@link #MAX_CAPACITY} elements (IREE counts in {@code size_t}).
 *
 * <p><b>Equality.</b> {@link #equals} is structural: the same element type, the same size, equal
 * values, equal refs (lists compared structurally, other refs by their own {@code equals}, which
 * for buffer views and opaque refs is identity). A variant list never equals a typed list, even
 * with the same elements. Lists that contain themselves (directly or through others) compare and
 * print without looping. As for {@link java.util.ArrayList}, the hash code changes when the list
 * does: do not mutate a list used as a map key.
 *
 * <p><b>Resources.</b> A list of Java objects holds no native memory, but it may hold refs that do.
 * {@link #close()} releases the tree: it closes every {@link VmResource} the list holds, through
 * nested lists (each once, cycles included), then empties the list; any later use throws {@link
 * IllegalStateException}. So close a result list to release what a backend returned, and {@link
 * #takeRef take} a ref out first to keep it. Replacing or dropping an element ({@link #set}, {@link
 * #resize}, {@link #clear}) does not close it. A list you build from refs you still need needs no
 * closing: it is reclaimed by the garbage collector.
 *
 * <p><b>Thread safety.</b> Lists are mutable and not synchronized (as IREE's own lists): confine a
 * list to one thread at a time, or synchronize externally. {@link VmValue}s and {@link VmTypeDef}s
 * are immutable.
 */
public final class VmList implements VmRef, VmResource {

  /** The VM type name of lists. */
  public static final String REF_TYPE = "vm.list";

  /** The largest capacity (and so size) a list can have. */
  public static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

  private static final int MIN_GROWTH = 8;
  private static final int TO_STRING_MAX_ELEMENTS = 256;
  private static final int TO_STRING_MAX_DEPTH = 32;

  /** How deep {@link #endCall()} looks into nested lists. */
  private static final int END_CALL_MAX_DEPTH = 16;

  /** How many elements {@link #endCall()} looks at, at most. */
  private static final int END_CALL_MAX_ELEMENTS = 4096;

  private final VmTypeDef elementType;

  /** The value type of a typed value list, else null. */
  private final VmValueType valueType;

  /** Slots of a typed value list: each value's {@link VmValue#rawBits()}. Null otherwise. */
  private long[] bits;

  /** Slots of a variant or ref list: VmValue, VmRef or null. Null for a typed value list. */
  private Object[] objects;

  private int size;
  private boolean closed;

  private VmList(VmTypeDef elementType, int capacity) {
    this.elementType = Objects.requireNonNull(elementType, "elementType");
    checkCapacity(capacity);
    this.valueType = elementType.valueType().orElse(null);
    if (valueType != null) {
      bits = new long[capacity];
    } else {
      objects = new Object[capacity];
    }
  }

  private static void checkCapacity(int capacity) {
    if (capacity < 0 || capacity > MAX_CAPACITY) {
      throw new IllegalArgumentException(
          "capacity must be 0.." + MAX_CAPACITY + ", got " + capacity);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Factories

  /**
   * An empty list of {@code elementType} with room for {@code initialCapacity} elements, as {@code
   * iree_vm_list_create}.
   *
   * @param elementType what the list may hold: a value type, a ref type, or the variant type
   * @param initialCapacity how many elements fit before the list grows
   * @return a new empty list
   * @throws IllegalArgumentException when the capacity is negative or over {@link #MAX_CAPACITY}
   */
  public static VmList create(VmTypeDef elementType, int initialCapacity) {
    return new VmList(elementType, initialCapacity);
  }

  /**
   * An empty variant list ({@code list<?>}) with room for {@code capacity} elements.
   *
   * @param capacity how many elements fit before the list grows
   * @return a new empty list that holds values, refs and empty slots alike
   */
  public static VmList variant(int capacity) {
    return new VmList(VmTypeDef.VARIANT, capacity);
  }

  /**
   * An empty typed value list ({@code list<i32>}...) with room for {@code capacity} elements.
   *
   * @param type the value type every element is converted to
   * @param capacity how many elements fit before the list grows
   * @return a new empty list of that value type
   */
  public static VmList ofValues(VmValueType type, int capacity) {
    return new VmList(VmTypeDef.value(type), capacity);
  }

  /**
   * An empty typed ref list ({@code list<!hal.buffer_view>}...) with room for {@code capacity}
   * elements.
   *
   * @param refTypeName the VM type name every element must have, such as {@code hal.buffer_view}
   * @param capacity how many elements fit before the list grows
   * @return a new empty list of that ref type
   * @throws IllegalArgumentException when the type name is empty or contains whitespace
   */
  public static VmList ofRefs(String refTypeName, int capacity) {
    return new VmList(VmTypeDef.ref(refTypeName), capacity);
  }

  /**
   * A variant list of {@code elements}, each a {@link VmValue}, a {@link VmRef} or {@code null} (an
   * empty slot), e.g. {@code VmList.of(VmValue.i32(1), view, VmList.of(VmValue.i32(2)))}. A lone
   * {@code null} argument ({@code VmList.of(null)}, which Java passes as a null array) is read as
   * one empty slot.
   *
   * @param elements the elements, in order
   * @return a new variant list holding them
   * @throws IllegalArgumentException for an element of any other Java type
   */
  public static VmList of(Object... elements) {
    if (elements == null) {
      elements = new Object[] {null};
    }
    VmList list = variant(elements.length);
    for (Object e : elements) {
      list.push(e);
    }
    return list;
  }

  /**
   * A {@code list<i8>} of {@code bytes} (copied).
   *
   * @param bytes the bytes to copy
   * @return a new {@code list<i8>} of the same length
   */
  public static VmList ofBytes(byte[] bytes) {
    VmList list = ofValues(VmValueType.I8, bytes.length);
    for (int i = 0; i < bytes.length; i++) {
      list.bits[i] = bytes[i];
    }
    list.size = bytes.length;
    return list;
  }

  /**
   * The VM form of a string: a {@code list<i8>} of its UTF-8 bytes (no terminator).
   *
   * @param s the string to encode
   * @return a new {@code list<i8>} of its UTF-8 encoding
   * @throws IllegalArgumentException when {@code s} has an unpaired surrogate (it has no UTF-8
   *     form; the message gives its char index)
   */
  public static VmList utf8(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            "the string has an unpaired surrogate U+"
                + Integer.toHexString(c).toUpperCase(Locale.ROOT)
                + " at index "
                + i
                + "; it has no UTF-8 form");
      }
    }
    return ofBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  // ---------------------------------------------------------------------------------------------
  // Shape

  /** {@value #REF_TYPE}. */
  @Override
  public String refTypeName() {
    return REF_TYPE;
  }

  /**
   * The element type the list is bound to.
   *
   * @return the type given when the list was made
   */
  public VmTypeDef elementType() {
    return elementType;
  }

  /**
   * The number of elements.
   *
   * @return the size, which grows by {@link #push} and changes by {@link #resize}
   */
  public int size() {
    checkOpen();
    return size;
  }

  /**
   * True when the list has no elements.
   *
   * @return true when {@link #size()} is 0
   */
  public boolean isEmpty() {
    return size() == 0;
  }

  /**
   * How many elements fit before the list reallocates.
   *
   * @return the current capacity, never below the size
   */
  public int capacity() {
    checkOpen();
    return valueType != null ? bits.length : objects.length;
  }

  /**
   * Makes room for at least {@code minCapacity} elements, as {@code iree_vm_list_reserve}.
   *
   * @param minCapacity the capacity wanted
   * @throws IllegalArgumentException when the capacity is negative or over {@link #MAX_CAPACITY}
   */
  public void reserve(int minCapacity) {
    checkOpen();
    checkCapacity(minCapacity);
    ensureCapacity(minCapacity);
  }

  /**
   * Sets the size, as {@code iree_vm_list_resize}: new slots are zeros in a typed value list and
   * empty ({@code null}) in a variant or ref list; slots past a smaller size are dropped (not
   * closed).
   *
   * @param newSize the size wanted
   * @throws IllegalArgumentException when the size is negative or over {@link #MAX_CAPACITY}
   */
  public void resize(int newSize) {
    checkOpen();
    checkCapacity(newSize);
    ensureCapacity(newSize);
    if (valueType != null) {
      if (newSize < size) {
        Arrays.fill(bits, newSize, size, 0L);
      }
    } else if (newSize < size) {
      Arrays.fill(objects, newSize, size, null);
    }
    size = newSize;
  }

  /** Removes every element (without closing any); the capacity stays. */
  public void clear() {
    resize(0);
  }

  private void ensureCapacity(int min) {
    int capacity = valueType != null ? bits.length : objects.length;
    if (min <= capacity) {
      return;
    }
    int grown = capacity > MAX_CAPACITY / 2 ? MAX_CAPACITY : Math.max(capacity * 2, MIN_GROWTH);
    int newCapacity = Math.max(min, grown);
    if (valueType != null) {
      bits = Arrays.copyOf(bits, newCapacity);
    } else {
      objects = Arrays.copyOf(objects, newCapacity);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  /**
   * Appends {@code element}: a {@link VmValue}, a {@link VmRef} or {@code null} (an empty slot or a
   * null ref).
   *
   * @param element the element to append
   * @return this list
   * @throws VmTypeException when a typed list cannot hold the element (see {@link #set})
   * @throws IllegalArgumentException for an element of any other Java type, or a closed resource
   */
  public VmList push(Object element) {
    // What marshalling pushes, decided in a few instructions so that callers stay small enough for
    // the JIT to inline: a value, a buffer view or an open list into a variant list with room.
    Object[] slots = objects;
    if (slots != null
        && size < slots.length
        && !closed
        && elementType.isVariant()
        && (element instanceof VmValue
            || element instanceof BufferView
            || (element instanceof VmList vmList && !vmList.closed))) {
      slots[size++] = element;
      return this;
    }
    return pushChecked(element);
  }

  private VmList pushChecked(Object element) {
    checkOpen();
    if (size == MAX_CAPACITY) {
      throw new IllegalStateException("a vm.list holds at most " + MAX_CAPACITY + " elements");
    }
    Object stored = admit(size, element);
    ensureCapacity(size + 1);
    store(size, stored);
    size++;
    return this;
  }

  /**
   * Appends a value, converted to the element type of a typed value list, as {@code
   * iree_vm_list_push_value}.
   *
   * @param value the value to append
   * @return this list
   * @throws VmTypeException for a ref list, or a conversion between integer and float
   */
  public VmList pushValue(VmValue value) {
    return push(Objects.requireNonNull(value, "value"));
  }

  /**
   * Appends a ref, or a null ref, as {@code iree_vm_list_push_ref_retain}.
   *
   * @param ref the ref to append, or null for a null ref
   * @return this list
   * @throws VmTypeException for a value list, or a ref of another type than a ref list's
   */
  public VmList pushRef(VmRef ref) {
    return push(ref);
  }

  /**
   * Replaces the element at {@code index} with {@code element} (a {@link VmValue}, a {@link VmRef}
   * or {@code null}). The replaced element is dropped, not closed.
   *
   * <p>A typed value list converts a value of another width as the VM does and refuses refs, nulls
   * and integer/float conversions; a typed ref list refuses values and refs of another type; a
   * variant list takes anything.
   *
   * @param index the slot, in {@code [0, size)}
   * @param element the new element
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when a typed list cannot hold the element
   * @throws IllegalArgumentException for an element of any other Java type, or a closed resource
   */
  public void set(int index, Object element) {
    checkIndex(index);
    store(index, admit(index, element));
  }

  /**
   * {@link #set} for a value, as {@code iree_vm_list_set_value}.
   *
   * @param index the slot, in {@code [0, size)}
   * @param value the new value
   */
  public void setValue(int index, VmValue value) {
    set(index, Objects.requireNonNull(value, "value"));
  }

  /**
   * {@link #set} for a ref or a null ref, as {@code iree_vm_list_set_ref_retain}.
   *
   * @param index the slot, in {@code [0, size)}
   * @param ref the new ref, or null for a null ref
   */
  public void setRef(int index, VmRef ref) {
    set(index, ref);
  }

  /** Checks that {@code element} may go at {@code index}; returns what to store. */
  private Object admit(int index, Object element) {
    if (element != null && !(element instanceof VmValue) && !(element instanceof VmRef)) {
      throw new IllegalArgumentException(
          "a vm.list element is a VmValue, a VmRef or null; got "
              + JavaMapping.aTypeName(element)
              + " ("
              + element
              + ") for index "
              + index);
    }
    if (element instanceof VmResource vmResource && vmResource.isClosed()) {
      throw new IllegalArgumentException(
          "cannot put a closed " + ((VmRef) element).refTypeName() + " at index " + index);
    }
    if (elementType.isVariant()) {
      return element;
    }
    if (valueType != null) {
      if (!(element instanceof VmValue value)) {
        throw new VmTypeException(
            typeName()
                + " cannot hold "
                + describe(element)
                + " at index "
                + index
                + ": expected a value of type "
                + valueType);
      }

      if (value.type().isInteger() != valueType.isInteger()) {
        throw new VmTypeException(
            typeName()
                + " cannot hold "
                + value
                + " at index "
                + index
                + ": the VM does not convert between integers and floats");
      }
      return value.convertTo(valueType);
    }
    String refType = elementType.refTypeName().get();
    if (element instanceof VmValue
        || (element != null && !refType.equals(((VmRef) element).refTypeName()))) {
      throw new VmTypeException(
          typeName()
              + " cannot hold "
              + describe(element)
              + " at index "
              + index
              + ": expected a "
              + refType
              + " ref or null");
    }
    return element;
  }

  private void store(int index, Object admitted) {
    if (valueType != null) {
      bits[index] = ((VmValue) admitted).rawBits();
    } else {
      objects[index] = admitted;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /**
   * The element at {@code index}: a {@link VmValue}, a {@link VmRef}, or {@code null} for an empty
   * slot or a null ref (as {@code iree_vm_list_get_variant_assign}).
   *
   * @param index the slot, in {@code [0, size)}
   * @return what the slot holds
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   */
  public Object get(int index) {
    checkIndex(index);
    return load(index);
  }

  private Object load(int index) {
    return valueType != null ? VmValue.fromBits(valueType, bits[index]) : objects[index];
  }

  /**
   * The value at {@code index}, of the type it was stored with, as {@code iree_vm_list_get_value}.
   *
   * @param index the slot, in {@code [0, size)}
   * @return the value, unconverted
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when the element is a ref or an empty slot ({@code variant at index N
   *     is not a value type})
   */
  public VmValue getValue(int index) {
    Object e = get(index);
    if (!(e instanceof VmValue vmValue)) {
      throw new VmTypeException(slotName(index) + " is not a value type: got " + describe(e));
    }
    return vmValue;
  }

  /**
   * The value at {@code index} converted to {@code type} by the VM's rules (as {@code
   * iree_vm_list_get_value_as}, which is how a call reads a value into an {@code i}, {@code I},
   * {@code f} or {@code F} slot).
   *
   * @param index the slot, in {@code [0, size)}
   * @param type the value type wanted
   * @return the value, converted to {@code type}
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when the element is not a value, or is an integer read as a float or a
   *     float read as an integer (where IREE would silently yield 0)
   */
  public VmValue getValueAs(int index, VmValueType type) {
    VmValue v = getValue(index);
    if (v.type().isInteger() != type.isInteger()) {
      throw new VmTypeException(
          slotName(index)
              + " is "
              + v
              + ", which the VM does not convert to "
              + type
              + " (no conversion between integers and floats)");
    }
    return v.convertTo(type);
  }

  /**
   * The ref at {@code index}, or {@code null} for a null ref or an empty slot. The list keeps the
   * ref (a borrow, as {@code iree_vm_list_get_ref_assign}): closing the list closes it.
   *
   * @param index the slot, in {@code [0, size)}
   * @return the ref, still owned by the list
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when the element is a value
   */
  public VmRef getRef(int index) {
    Object e = get(index);
    if (e instanceof VmValue) {
      throw new VmTypeException(slotName(index) + " is not a ref: got " + describe(e));
    }
    return (VmRef) e;
  }

  /**
   * The ref at {@code index} as a {@code type}, as {@code iree_vm_list_get_ref_deref} with a type
   * check.
   *
   * @param <T> the ref class wanted
   * @param index the slot, in {@code [0, size)}
   * @param type the class of {@code T}
   * @return the ref, cast and still owned by the list
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when the element is a value, null, or a ref of another class
   */
  public <T extends VmRef> T getRef(int index, Class<T> type) {
    return getRef(index, type, type.getSimpleName());
  }

  /**
   * The list at {@code index}.
   *
   * @param index the slot, in {@code [0, size)}
   * @return the nested list, still owned by this one
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when the element is a value, null, or another ref
   */
  public VmList getList(int index) {
    return getRef(index, VmList.class, REF_TYPE);
  }

  /**
   * The buffer view at {@code index}.
   *
   * @param index the slot, in {@code [0, size)}
   * @return the buffer view, still owned by the list
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when the element is a value, null, or another ref
   */
  public BufferView getBufferView(int index) {
    return getRef(index, BufferView.class, BufferView.REF_TYPE);
  }

  private <T extends VmRef> T getRef(int index, Class<T> type, String expected) {
    Object e = get(index);
    if (e == null) {
      throw new VmTypeException(slotName(index) + " is null: expected " + expected);
    }
    if (e instanceof VmValue) {
      throw new VmTypeException(
          slotName(index) + " is not a ref: expected " + expected + ", got " + describe(e));
    }
    if (!type.isInstance(e)) {
      throw new VmTypeException(
          slotName(index)
              + " has the wrong ref type: expected "
              + expected
              + ", got "
              + describe(e));
    }
    return type.cast(e);
  }

  /**
   * Moves the ref at {@code index} out of the list, leaving a null ref (as {@code
   * iree_vm_list_get_ref_move}): the caller now owns it, and closing the list will not close it.
   *
   * @param index the slot, in {@code [0, size)}
   * @return the ref, or null for a null ref or an empty slot
   * @throws IndexOutOfBoundsException when {@code index} is not in {@code [0, size)}
   * @throws VmTypeException when the element is a value (or the list is a value list)
   */
  public VmRef takeRef(int index) {
    VmRef ref = getRef(index);
    objects[index] = null;
    return ref;
  }

  /**
   * A snapshot of the elements, in order: {@link VmValue}s, {@link VmRef}s and {@code null}s.
   * Unmodifiable; later changes to this list do not show in it.
   *
   * @return the elements at the time of the call
   */
  public List<Object> elements() {
    checkOpen();
    Object[] copy = new Object[size];
    for (int i = 0; i < size; i++) {
      copy[i] = load(i);
    }
    return Collections.unmodifiableList(Arrays.asList(copy));
  }

  /**
   * A shallow copy (as {@code iree_vm_list_clone}): a new list of the same element type holding the
   * same values and the same ref objects.
   *
   * @return a new list; closing either one closes the shared refs
   */
  public VmList copy() {
    checkOpen();
    VmList c = new VmList(elementType, size);
    if (valueType != null) {
      System.arraycopy(bits, 0, c.bits, 0, size);
    } else {
      System.arraycopy(objects, 0, c.objects, 0, size);
    }
    c.size = size;
    return c;
  }

  /**
   * The bytes of a list of {@code i8} values: a {@code list<i8>}, or a variant list whose every
   * element is an {@code i8} value.
   *
   * @return a new array of the list's bytes, in order
   * @throws VmTypeException for any other list, naming the first element that is not an {@code i8}
   */
  public byte[] toByteArray() {
    checkOpen();
    byte[] out = new byte[size];
    if (valueType == VmValueType.I8) {
      for (int i = 0; i < size; i++) {
        out[i] = (byte) bits[i];
      }
      return out;
    }
    if (!elementType.isVariant()) {
      throw new VmTypeException("expected a list<i8> (a string's bytes), got a " + typeName());
    }
    for (int i = 0; i < size; i++) {
      Object e = objects[i];
      if (!(e instanceof VmValue vmValue) || vmValue.type() != VmValueType.I8) {
        throw new VmTypeException(
            "expected a list of i8 (a string's bytes), but " + slotName(i) + " is " + describe(e));
      }
      out[i] = vmValue.asI8();
    }
    return out;
  }

  /**
   * The string whose UTF-8 bytes this list holds (see {@link #toByteArray()} for the lists
   * accepted). Decoding is strict: malformed UTF-8 is an error, not replaced, so that corrupt data
   * is never passed on as text; use {@link #toByteArray()} to decode leniently.
   *
   * @return the decoded string
   * @throws VmTypeException when the list is not a list of {@code i8}
   * @throws IllegalStateException when the bytes are not valid UTF-8 (the message gives the byte
   *     offset)
   */
  public String toUtf8String() {
    byte[] bytes = toByteArray();
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new IllegalStateException(
          "the list<i8> is not valid UTF-8: malformed input of "
              + result.length()
              + " byte(s) at offset "
              + in.position()
              + " of "
              + bytes.length);
    }
    decoder.flush(out);
    return out.flip().toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Resources

  /**
   * Releases the tree: closes every {@link VmResource} this list holds, and every list nested in it
   * (each once; a list holding itself is fine), then empties them. Later calls do nothing; any
   * other use of a closed list throws {@link IllegalStateException}. If releasing an element
   * throws, the rest are still released and the first exception is rethrown (with the others
   * suppressed).
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    RuntimeException failure = null;
    Deque<VmList> pending = new ArrayDeque<>();
    closed = true;
    pending.push(this);
    while (!pending.isEmpty()) {
      VmList list = pending.pop();
      Object[] held = list.objects;
      int n = list.size;
      list.size = 0;
      if (held == null) {
        list.bits = new long[0];
        continue;
      }
      list.objects = new Object[0];
      for (int i = 0; i < n; i++) {
        Object e = held[i];
        if (e instanceof VmList child) {
          if (!child.closed) {
            child.closed = true;
            pending.push(child);
          }
        } else if (e instanceof VmResource vmResource) {
          try {
            vmResource.close();
          } catch (RuntimeException ex) {
            if (failure == null) {
              failure = ex;
            } else if (failure != ex) {
              failure.addSuppressed(ex);
            }
          }
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  /**
   * Ends a call whose argument list this is: every buffer view in it (at any depth of nested lists,
   * up to {@value #END_CALL_MAX_DEPTH} deep and {@value #END_CALL_MAX_ELEMENTS} elements in all, so
   * that a huge list costs little) is told the call is over ({@link BufferView#endCall()}), which
   * frees the copies made for that call alone ({@link BufferView#lendForCall}) unless a backend or
   * a result still pins them. Views of memory the caller lent are left alone, and the list itself
   * stays open: its owner closes it. Called by whoever made the call, once it is over (for an
   * asynchronous call, when its signal fence is reached or failed).
   */
  public void endCall() {
    endCall(this, 0, END_CALL_MAX_ELEMENTS);
  }

  /** Ends the call-owned views of {@code list}; returns the element budget left. */
  private static int endCall(VmList list, int depth, int budget) {
    if (list.closed || list.elementType.isValue()) {
      return budget; // numbers only
    }
    int n = list.size;
    for (int i = 0; i < n && budget > 0; i++, budget--) {
      Object element = list.get(i);
      if (element instanceof BufferView bufferView) {
        bufferView.endCall();
      } else if (element instanceof VmList vmList && depth < END_CALL_MAX_DEPTH) {
        budget = endCall(vmList, depth + 1, budget);
      }
    }
    return budget;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the " + typeName() + " is closed");
    }
  }

  private void checkIndex(int index) {
    checkOpen();
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException(
          "index " + index + " out of bounds for a " + typeName() + " of size " + size);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Descriptions

  /** {@code vm.list<?>}, {@code vm.list<i32>}, {@code vm.list<!hal.buffer_view>}. */
  private String typeName() {
    return "vm.list<" + elementType + ">";
  }

  private String slotName(int index) {
    return elementType.isVariant()
        ? "variant at index " + index
        : "element at index " + index + " of a " + typeName();
  }

  /** A short description of an element for error messages. */
  private static String describe(Object e) {
    if (e == null) {
      return "null";
    }
    if (e instanceof VmValue || e instanceof BufferView) {
      return e.toString();
    }
    if (e instanceof VmList l) {
      return "a " + l.typeName() + (l.closed ? " (closed)" : " of size " + l.size);
    }
    return "a " + ((VmRef) e).refTypeName() + " ref";
  }

  // ---------------------------------------------------------------------------------------------
  // Object

  /**
   * True for a {@link VmList} with the same element type and equal elements (see the class
   * description). Terminates on lists that contain themselves: two lists are equal when no
   * difference can be found by walking both together.
   */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof VmList vmList)) {
      return false;
    }
    // Walk both graphs together; a pair of lists already being compared is assumed equal (the
    // largest consistent answer), which makes cyclic lists equal when they unfold alike.
    IdentityHashMap<VmList, Set<VmList>> seen = new IdentityHashMap<>();
    Deque<VmList[]> pending = new ArrayDeque<>();
    pending.push(new VmList[] {this, vmList});
    seen.computeIfAbsent(this, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(vmList);
    while (!pending.isEmpty()) {
      VmList[] pair = pending.pop();
      VmList a = pair[0];
      VmList b = pair[1];
      if (a.closed != b.closed || !a.elementType.equals(b.elementType) || a.size != b.size) {
        return false;
      }
      if (a.valueType != null) {
        if (!Arrays.equals(a.bits, 0, a.size, b.bits, 0, b.size)) {
          return false;
        }
        continue;
      }
      for (int i = 0; i < a.size; i++) {
        Object x = a.objects[i];
        Object y = b.objects[i];
        if (x == y) {
          continue;
        }
        if (x instanceof VmList xList && y instanceof VmList yList) {
          Set<VmList> partners =
              seen.computeIfAbsent(xList, k -> Collections.newSetFromMap(new IdentityHashMap<>()));
          if (partners.add(yList)) {
            pending.push(new VmList[] {xList, yList});
          }
        } else if (x instanceof VmList || y instanceof VmList || !Objects.equals(x, y)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * A hash consistent with {@link #equals}: of the element type, the size and the elements, where a
   * nested list contributes only its element type and size (so cyclic lists hash finitely).
   */
  @Override
  public int hashCode() {
    int h = 31 * elementType.hashCode() + size;
    h = 31 * h + Boolean.hashCode(closed);
    for (int i = 0; i < size; i++) {
      int eh;
      if (valueType != null) {
        eh = Long.hashCode(bits[i]);
      } else {
        Object e = objects[i];
        if (e instanceof VmList l) {
          eh = 31 * l.elementType.hashCode() + l.size;
        } else {
          eh = Objects.hashCode(e);
        }
      }
      h = 31 * h + eh;
    }
    return h;
  }

  /**
   * The elements, for tests and messages. A variant list prints as {@code [i32 1,
   * hal.buffer_view<4xf32>, [i32 2], null]}; a typed list prints its element type and then bare
   * values or refs: {@code list<i32>[1, 2]}, {@code list<!hal.buffer_view>[hal.buffer_view<4xf32>,
   * null]}. A list already being printed (a cycle) or nested deeper than 32 prints as {@code
   * [...]}; after 256 elements the rest is counted ({@code ..., 744 more]}). A closed list prints
   * as {@code vm.list<?> (closed)}.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    appendTo(sb, Collections.newSetFromMap(new IdentityHashMap<>()), 0);
    return sb.toString();
  }

  private void appendTo(StringBuilder sb, Set<VmList> path, int depth) {
    if (closed) {
      sb.append(typeName()).append(" (closed)");
      return;
    }
    if (depth >= TO_STRING_MAX_DEPTH || !path.add(this)) {
      sb.append("[...]");
      return;
    }
    if (!elementType.isVariant()) {
      sb.append("list<").append(elementType).append('>');
    }
    sb.append('[');
    int shown = Math.min(size, TO_STRING_MAX_ELEMENTS);
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      if (valueType != null) {
        sb.append(VmValue.fromBits(valueType, bits[i]).valueString());
      } else if (objects[i] instanceof VmList) {
        ((VmList) objects[i]).appendTo(sb, path, depth + 1);
      } else {
        sb.append(objects[i]);
      }
    }
    if (size > shown) {
      sb.append(", ..., ").append(size - shown).append(" more");
    }
    sb.append(']');
    path.remove(this);
  }
}
