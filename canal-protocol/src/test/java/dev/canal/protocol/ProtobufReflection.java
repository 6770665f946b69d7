package dev.canal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Random;

/**
 * Fills and compares protobuf messages through their descriptors, so one piece of code exercises both our
 * generated classes and the official Canal ones (which are different Java classes for the same wire format).
 */
final class ProtobufReflection {

    enum FillMode {
        /** random values, repeated fields with two elements, nested messages filled */
        RANDOM,
        /** every singular field explicitly set to its default value: exercises presence on the wire */
        EXPLICIT_DEFAULTS
    }

    private static final int MAX_DEPTH = 3;

    private ProtobufReflection() {
    }

    static Message fill(Message.Builder builder, Random random, FillMode mode) {
        fill(builder, random, mode, 0);
        return builder.build();
    }

    private static void fill(Message.Builder builder, Random random, FillMode mode, int depth) {
        for (FieldDescriptor field : builder.getDescriptorForType().getFields()) {
            if (field.isRepeated()) {
                if (mode == FillMode.RANDOM) {
                    for (int i = 0; i < 2; i++) {
                        Object value = valueFor(builder, field, random, mode, depth);
                        if (value != null) {
                            builder.addRepeatedField(field, value);
                        }
                    }
                }
            } else {
                Object value = mode == FillMode.EXPLICIT_DEFAULTS && field.getJavaType() != FieldDescriptor.JavaType.MESSAGE
                        ? field.getDefaultValue()
                        : valueFor(builder, field, random, mode, depth);
                if (value != null) {
                    builder.setField(field, value);
                }
            }
        }
    }

    private static Object valueFor(Message.Builder builder, FieldDescriptor field, Random random, FillMode mode,
            int depth) {
        return switch (field.getJavaType()) {
            case INT -> random.nextInt();
            case LONG -> random.nextLong();
            case BOOLEAN -> random.nextBoolean();
            case FLOAT -> random.nextFloat();
            case DOUBLE -> random.nextDouble();
            case STRING -> "s" + Integer.toHexString(random.nextInt()) + "中文";
            case BYTE_STRING -> ByteString.copyFrom(randomBytes(random));
            case ENUM -> {
                List<EnumValueDescriptor> values = field.getEnumType().getValues();
                yield values.get(random.nextInt(values.size()));
            }
            case MESSAGE -> {
                if (depth >= MAX_DEPTH) {
                    yield null;
                }
                Message.Builder nested = builder.newBuilderForField(field);
                fill(nested, random, mode, depth + 1);
                yield nested.build();
            }
        };
    }

    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[1 + random.nextInt(12)];
        random.nextBytes(bytes);
        return bytes;
    }

    /**
     * Asserts two messages of different classes (ours and the official one) hold the same data: every field
     * by number, its presence where the field tracks presence, repeated counts, enum numbers, nested messages.
     */
    static void assertSameContent(Message expected, Message actual, String path) {
        for (FieldDescriptor ef : expected.getDescriptorForType().getFields()) {
            FieldDescriptor af = actual.getDescriptorForType().findFieldByNumber(ef.getNumber());
            String where = path + "." + ef.getName();
            assertThat(af).as("field %s exists on both sides", where).isNotNull();
            if (ef.isRepeated()) {
                int count = expected.getRepeatedFieldCount(ef);
                assertThat(actual.getRepeatedFieldCount(af)).as("%s count", where).isEqualTo(count);
                for (int i = 0; i < count; i++) {
                    assertSameValue(expected.getRepeatedField(ef, i), actual.getRepeatedField(af, i), where + "[" + i + "]");
                }
            } else {
                if (ef.hasPresence()) {
                    assertThat(actual.hasField(af)).as("presence of %s", where).isEqualTo(expected.hasField(ef));
                }
                assertSameValue(expected.getField(ef), actual.getField(af), where);
            }
        }
    }

    private static void assertSameValue(Object expected, Object actual, String where) {
        if (expected instanceof Message em) {
            assertSameContent(em, (Message) actual, where);
        } else if (expected instanceof EnumValueDescriptor ee) {
            assertThat(((EnumValueDescriptor) actual).getNumber()).as("enum %s", where).isEqualTo(ee.getNumber());
        } else {
            assertThat(actual).as("value of %s", where).isEqualTo(expected);
        }
    }
}
